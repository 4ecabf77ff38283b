"""Set a Label Studio project up to be driven by a session, end to end, with label-studio-sdk.

``setup_project`` (``fairacq labelstudio setup``): create the session (a managed group
sampler, unless one is named), create the connection, register its ML backend (basic
auth: the token is the password), make the webhook Label Studio created for it send
annotation events with the token, point the project's model version at the
connection's, add a Data Manager tab sorted by prediction score, and optionally fetch
the first priorities. ``refresh_priorities`` (``fairacq labelstudio refresh``) replaces
the predictions of the unlabeled tasks with the session's current priorities, so the tab
follows the session's latest decision.

label-studio-sdk is the optional extra ``labelstudio`` (``pip install 'fairacq[labelstudio]'``),
imported here only when a function runs; the service itself never imports this module.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx
    from label_studio_sdk import LabelStudio

__all__ = ["ANNOTATION_ACTIONS", "SetupResult", "add_commands", "http_client", "refresh_priorities", "sdk_client",
           "setup_project"]

ANNOTATION_ACTIONS = ["ANNOTATION_CREATED", "ANNOTATIONS_CREATED", "ANNOTATION_UPDATED"]
TAB_TITLE = "fairacq priority"
BY_PRIORITY = ["-tasks:predictions_score"]
# The Data Manager's filter for tasks nobody has annotated yet.
UNLABELED = {"conjunction": "and", "items": [
    {"filter": "filter:tasks:total_annotations", "operator": "equal", "type": "Number", "value": 0}]}
TIMEOUT_S = 120.0  # a refresh makes Label Studio call /predict for every unlabeled task


@dataclass(frozen=True)
class SetupResult:
    session_id: str
    connection_id: str
    token: str
    ml_backend_id: int
    backend_url: str
    webhook_id: int
    view_id: int
    model_version: str


def sdk_client(url: str, token: str, http: httpx.Client) -> LabelStudio:
    """A label-studio-sdk client on ``http`` (the caller closes it), or a clear message without the extra."""
    try:
        from label_studio_sdk import LabelStudio
    except ImportError:
        raise SystemExit("label-studio-sdk is not installed: pip install 'fairacq[labelstudio]'") from None
    return LabelStudio(base_url=url, api_key=token, httpx_client=http)


def http_client() -> httpx.Client:
    """An HTTP client for Label Studio's API, with room for a refresh of many tasks."""
    import httpx  # comes with label-studio-sdk (the extra); the service does not need it

    return httpx.Client(timeout=TIMEOUT_S)


def _api(fairacq_url: str, api_key: str | None) -> httpx.Client:
    import httpx  # comes with label-studio-sdk (the extra); the service does not need it

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return httpx.Client(base_url=fairacq_url.rstrip("/"), headers=headers, timeout=30.0)


def _checked(response: httpx.Response) -> dict[str, Any]:
    if response.status_code >= 400:
        raise SystemExit(f"fairacq answered {response.status_code} to {response.request.url.path}: {response.text}")
    return dict(response.json())


def project_groups(client: LabelStudio, project_id: int, group_field: str) -> list[str]:
    """The distinct values of the group field among the project's tasks, in order of first appearance."""
    seen: dict[str, None] = {}
    listed: Iterable[Any] = client.tasks.list(project=project_id, fields="all")
    for task in listed:
        value = (task.data or {}).get(group_field)
        if value is not None:
            seen.setdefault(str(value), None)
    return list(seen)


def setup_project(*, ls_url: str, ls_token: str, project_id: int, fairacq_url: str, mapping: dict[str, Any],
                  session_type: str = "group_sampler", session_id: str | None = None, api_key: str | None = None,
                  backend_url: str | None = None, sampler: dict[str, Any] | None = None,
                  options: dict[str, Any] | None = None, push: bool = True) -> SetupResult:
    """Everything a project needs to be driven by a session; ``backend_url`` is fairacq as Label Studio reaches it."""
    with http_client() as http:
        return _setup(sdk_client(ls_url, ls_token, http), project_id=project_id, fairacq_url=fairacq_url,
                      mapping=mapping, session_type=session_type, session_id=session_id, api_key=api_key,
                      backend_url=backend_url, sampler=sampler, options=options, push=push)


def _setup(client: LabelStudio, *, project_id: int, fairacq_url: str, mapping: dict[str, Any], session_type: str,
           session_id: str | None, api_key: str | None, backend_url: str | None, sampler: dict[str, Any] | None,
           options: dict[str, Any] | None, push: bool) -> SetupResult:
    with _api(fairacq_url, api_key) as api:
        if session_id is None:
            if session_type != "group_sampler":
                raise SystemExit("only a group sampler can be created here; create the balanced filter first "
                                 "(it needs training data) and pass its id")
            body = {"strategy": "aopt", "budget": 1000, **(sampler or {}), "mode": "managed"}
            body.setdefault("groups", project_groups(client, project_id, mapping["group"]))
            session_id = str(_checked(api.post("/v1/group-samplers", json=body))["id"])
        connection = _checked(api.post("/v1/labelstudio/connections", json={
            "session_type": session_type, "session_id": session_id, "mapping": mapping, "options": options or {},
            "name": f"Label Studio project {project_id}"}))
    url = (backend_url or fairacq_url).rstrip("/") + connection["backend_path"]
    version, token = connection["model_version"], connection["token"]
    # Label Studio calls /health and /setup here: fairacq must be reachable from it at `url`.
    ml = client.ml.create(project=project_id, url=url, title=version, auth_method="BASIC_AUTH",
                          basic_auth_user="fairacq", basic_auth_pass=token, auto_update=True)
    webhook_id = _annotation_webhook(client, project_id, url + "/webhook", token)
    client.projects.update(id=project_id, model_version=version, show_collab_predictions=True)
    view = client.views.create(project=project_id, data={"title": TAB_TITLE, "ordering": BY_PRIORITY})
    if push:
        refresh_priorities(client, project_id, url, token)
    assert ml.id is not None and view.id is not None
    return SetupResult(session_id, connection["id"], token, ml.id, url, webhook_id, view.id, version)


def _annotation_webhook(client: LabelStudio, project_id: int, url: str, token: str) -> int:
    """The webhook Label Studio made for the backend (or a new one): annotation events, with the token."""
    settings: dict[str, Any] = {"headers": {"Authorization": f"Bearer {token}"}, "send_payload": True,
                                "send_for_all_actions": False, "actions": ANNOTATION_ACTIONS, "is_active": True}
    for hook in client.webhooks.list(project=str(project_id)):
        if hook.url == url and hook.id is not None:
            client.webhooks.update(id=hook.id, url=url, **settings)
            return hook.id
    created = client.webhooks.create(url=url, project=project_id, **settings)
    assert created.id is not None
    return created.id


def refresh_priorities(client: LabelStudio, project_id: int, backend_url: str, token: str) -> int:
    """Push the session's current priorities for the unlabeled tasks as their predictions; how many.

    One /predict call for every unlabeled task, then Label Studio's bulk prediction import: its
    "Retrieve predictions" action gets the same scores but validates each prediction separately
    (about 0.1 s each on SQLite). The old predictions of those tasks are deleted first.
    """
    import httpx  # comes with label-studio-sdk (the extra)
    from label_studio_sdk import PredictionRequest

    query = json.dumps({"filters": UNLABELED})
    listed: Iterable[Any] = client.tasks.list(project=project_id, query=query, fields="task_only", page_size=1000)
    tasks = [{"id": task.id, "data": task.data} for task in listed]
    if not tasks:
        return 0
    with httpx.Client(timeout=TIMEOUT_S) as http:
        answer = http.post(backend_url.rstrip("/") + "/predict", json={"tasks": tasks},
                           headers={"Authorization": f"Bearer {token}"})
    if answer.status_code >= 400:
        raise SystemExit(f"fairacq answered {answer.status_code} to /predict: {answer.text}")
    predictions = [PredictionRequest(task=task["id"], result=[], score=made["score"],
                                     model_version=made["model_version"])
                   for task, made in zip(tasks, answer.json()["results"], strict=True)]
    client.actions.create(id="delete_tasks_predictions", project=project_id, filters=UNLABELED,
                          selected_items={"all": True, "excluded": []})
    client.projects.import_predictions(id=project_id, request=predictions)
    return len(tasks)


# -- the command line: fairacq labelstudio setup | refresh ----------------------------------------


def add_commands(sub: Any) -> None:
    """Add ``labelstudio setup`` and ``labelstudio refresh`` to ``fairacq``'s subcommands."""
    parser = sub.add_parser("labelstudio", help="drive a Label Studio project with a session")
    commands = parser.add_subparsers(dest="labelstudio_command", required=True)
    for name, helptext in (("setup", "create the session, connection, ML backend, webhook and tab"),
                           ("refresh", "replace the unlabeled tasks' predictions with current priorities")):
        command = commands.add_parser(name, help=helptext)
        command.add_argument("--url", required=True, help="Label Studio's base URL")
        command.add_argument("--token", required=True, help="a Label Studio API token (legacy or personal)")
        command.add_argument("--project", type=int, required=True, help="the Label Studio project id")
        command.set_defaults(func=_setup_command if name == "setup" else _refresh_command)
    refresh = commands.choices["refresh"]
    refresh.add_argument("--backend", required=True, help="the connection's ML backend URL (setup prints it)")
    refresh.add_argument("--connection-token", required=True, help="the connection's token (setup prints it)")
    setup = commands.choices["setup"]
    setup.add_argument("--fairacq-url", default="http://127.0.0.1:8000", help="fairacq as this command reaches it")
    setup.add_argument("--backend-url", help="fairacq as Label Studio reaches it (default: --fairacq-url)")
    setup.add_argument("--api-key", help="a fairacq API key (none in open mode)")
    setup.add_argument("--session-type", choices=["group_sampler", "balanced_filter"], default="group_sampler")
    setup.add_argument("--session-id", help="an existing session; default: create a managed group sampler")
    setup.add_argument("--features-field", required=True, help="task data field with the feature vector")
    setup.add_argument("--group-field", required=True, help="task data field with the group")
    setup.add_argument("--label-control", help="the Choices control holding the label (group samplers)")
    setup.add_argument("--positive", help="the choice that means label 1 (group samplers)")
    setup.add_argument("--sampler", type=json.loads, default={}, help="JSON fields of the sampler to create, e.g. "
                       "'{\"strategy\": \"aopt\", \"budget\": 100, \"seed\": 7}' (groups: read from the tasks)")
    setup.add_argument("--validation-every", type=int, help="hold out each group's first, then every n-th label")
    setup.add_argument("--no-push", action="store_true", help="do not fetch priorities now")


def _setup_command(args: argparse.Namespace) -> int:
    mapping: dict[str, Any] = {"features": args.features_field, "group": args.group_field}
    if args.label_control:
        mapping["label"] = {"control": args.label_control, "positive": args.positive or ""}
    options = {} if args.validation_every is None else {"validation_every": args.validation_every}
    result = setup_project(ls_url=args.url, ls_token=args.token, project_id=args.project,
                           fairacq_url=args.fairacq_url, backend_url=args.backend_url, api_key=args.api_key,
                           session_type=args.session_type, session_id=args.session_id, mapping=mapping,
                           sampler=args.sampler, options=options, push=not args.no_push)
    print(json.dumps(result.__dict__, indent=2))
    return 0


def _refresh_command(args: argparse.Namespace) -> int:
    with http_client() as http:
        count = refresh_priorities(sdk_client(args.url, args.token, http), args.project, args.backend,
                                   args.connection_token)
    print(f"priorities of {count} unlabeled tasks pushed to project {args.project}")
    return 0
