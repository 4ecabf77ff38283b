"""Label Studio adapter: a Label Studio project's ML backend and webhook, driven by a session (issue 20).

``router`` serves ``/v1/labelstudio/connections`` and the ML backend under ``/labelstudio/{id}``;
``setup`` sets a project up end to end with label-studio-sdk (the optional extra ``labelstudio``).
See docs/labelstudio.md.
"""

__all__: list[str] = []
