"""The web dashboard at ``/ui``: server-rendered pages, charts drawn by Plotly, the API key's tenant only.

    router.py     the pages, the JSON they poll, the static files and the exports (mounted by service.app)
    auth.py       login with an API key, the session cookie, CSRF
    models.py     the ``ui_sessions`` table
    repository.py the dashboard's reads: recent sessions and jobs, the log's responses for charts
    views/        one module per decision type: a session's facts and charts
    charts.py     Plotly figures (Okabe–Ito colours), built on the server as JSON
"""

__all__: list[str] = []
