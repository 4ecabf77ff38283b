"""The web dashboard at ``/ui``: server-rendered pages, charts drawn by Plotly, the API key's tenant only.

    router.py      the pages, login and logout (mounted by service.app)
    api.py         what the pages poll (JSON), a job's cancel, the decision log's exports
    static.py      ui.js, ui.css and the plotly.min.js of the installed plotly package
    auth.py        login with an API key, the session cookie, CSRF
    http.py        the route class (security headers), templates, reads
    overview.py    the home page's sessions and jobs
    repository.py  the dashboard's queries
    views/         one module per decision type: a session's facts and charts
    charts.py      Plotly figures (Okabe–Ito colours), built on the server as JSON
    models.py      the ``ui_sessions`` table
"""

__all__: list[str] = []
