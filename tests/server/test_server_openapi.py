"""Schema-driven checks: every HTTP endpoint in /openapi.json, given well-formed and malformed requests
built from the schema itself, never fails with a 5xx, and refuses malformed input with a 4xx and a reason."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

Schema = dict[str, Any]


def _resolve(schema: Schema, spec: Schema) -> Schema:
    while "$ref" in schema:
        node: Any = spec
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def _options(schema: Schema, spec: Schema) -> list[Schema]:
    """The alternatives of an ``anyOf`` (nulls last), or the schema itself."""
    schema = _resolve(schema, spec)
    if "anyOf" in schema:
        alts = [_resolve(a, spec) for a in schema["anyOf"]]
        return sorted(alts, key=lambda a: a.get("type") == "null")
    return [schema]


def example(schema: Schema, spec: Schema) -> Any:
    """A value the schema accepts (its example or default where it has one)."""
    if schema.get("examples"):
        return schema["examples"][0]
    schema = _options(schema, spec)[0]
    if schema.get("examples"):
        return schema["examples"][0]
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "string":
        return "x" * max(1, int(schema.get("minLength", 1)))
    if kind == "integer":
        return int(schema.get("minimum", 0))
    if kind == "number":
        return float(schema.get("minimum", 0))
    if kind == "boolean":
        return True
    if kind == "array":
        return [example(schema.get("items", {}), spec) for _ in range(int(schema.get("minItems", 0)))]
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {name: example(props[name], spec) for name in schema.get("required", [])}
    return None


def wrong_values(schema: Schema, spec: Schema) -> list[Any]:
    """Values of the wrong type or outside the limits of a property."""
    out: list[Any] = []
    kinds = {o.get("type") for o in _options(schema, spec)}
    if "string" not in kinds:
        out.append("not-a-" + "-".join(sorted(str(k) for k in kinds)))
    if not kinds & {"integer", "number"}:
        out.append(12345)
    if "object" not in kinds and "array" not in kinds:
        out.append({"nested": [1, 2]})
    for option in _options(schema, spec):
        if "maximum" in option:
            out.append(int(option["maximum"]) + 1)
        if "minimum" in option:
            out.append(int(option["minimum"]) - 1)
        if "maxLength" in option:
            out.append("y" * (int(option["maxLength"]) + 1))
        if "enum" in option:
            out.append("not-one-of-them")
    return out


def _requests(spec: Schema, path: str, method: str, op: Schema, table_id: str, token: str
              ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A well-formed request and a list of malformed ones (each a dict of TestClient.request kwargs)."""
    url = path.replace("{table_id}", table_id)
    params = {p["name"]: example(p["schema"], spec) for p in op.get("parameters", []) if p["in"] == "query"
              and p.get("required")}
    headers = {"Authorization": f"Bearer {token}"} if any(
        p["in"] == "header" and p["name"] == "authorization" for p in op.get("parameters", [])) else {}
    good: dict[str, Any] = {"method": method, "url": url, "params": params, "headers": headers}
    bad: list[dict[str, Any]] = []
    for p in op.get("parameters", []):
        if p["in"] == "query":
            for value in wrong_values(p["schema"], spec):
                if not isinstance(value, dict):
                    bad.append({**good, "params": {**params, p["name"]: str(value)}})
        if p["in"] == "header" and p["name"] == "authorization":
            bad.append({**good, "headers": {"Authorization": "Bearer forged-token"}})
            bad.append({**good, "headers": {"Authorization": "Basic abc"}})
        if p["in"] == "path":
            bad.append({**good, "url": path.replace("{table_id}", "no-such-table")})
            bad.append({**good, "url": path.replace("{table_id}", "x" * 300)})
    body_schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body_schema is not None:
        body_schema = _resolve(body_schema, spec)
        body = example(body_schema, spec)
        good["json"] = body
        bad.append({**good, "json": None, "content": b"{not json", "headers": {**headers,
                                                                             "Content-Type": "application/json"}})
        bad.append({**good, "json": [body]})
        bad.append({**good, "json": "just a string"})
        bad.append({**good, "json": {**body, "unexpected_field": 1}})
        if body_schema.get("required"):
            bad.append({**good, "json": {}})
        for name, prop in body_schema.get("properties", {}).items():
            for value in wrong_values(prop, spec):
                bad.append({**good, "json": {**body, name: value}})
    return good, bad


def _send(client: Any, request: dict[str, Any]) -> Any:
    request = dict(request)
    if request.get("json") is None:
        request.pop("json", None)
    return client.request(**request)


def test_every_endpoint_survives_well_formed_and_malformed_requests(server: Any) -> None:
    client = server.client
    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], params={"start_seat": 0})
    table_id, token = created["table_id"], created["you"]["token"]
    server.join(created)
    checked = 0
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            good, bad = _requests(spec, path, method.upper(), op, table_id, token)
            response = _send(client, good)
            assert response.status_code < 500, (method, path, response.text)
            if response.status_code >= 400:
                assert isinstance(response.json()["detail"], str), (method, path, response.text)
            for request in bad:
                before = server.live(table_id).state.fingerprint()
                response = _send(client, request)
                assert 400 <= response.status_code < 500, (method, path, request, response.status_code, response.text)
                detail = response.json().get("detail")
                assert isinstance(detail, str) and detail, (method, path, request, response.text)
                assert server.live(table_id).state.fingerprint() == before
                checked += 1
    assert checked > 40, checked
    # The well-formed action (from the schema's example, "draw 1") was played, and only once.
    assert server.store.action_count(table_id) == 1


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(text=st.text(min_size=1, max_size=40), ply=st.one_of(st.none(), st.integers(0, 5)))
def test_any_action_text_is_played_or_refused_without_a_trace(server: Any, text: str, ply: int | None) -> None:
    tables = server.client.get("/api/tables").json()
    if not tables:  # hypothesis runs every example on the same server: one table for them all
        created = server.create("captain-black", [{"kind": "human"}, {"kind": "human"}], seed=1)
        server.tokens = {created["you"]["seat"]: created["you"]["token"]}
        server.tokens[1 - created["you"]["seat"]] = server.join(created)
        tables = server.client.get("/api/tables").json()
    table_id = tables[0]["table_id"]
    asked = server.state(table_id)["to_move"]
    token = server.tokens[asked[0]] if asked else server.tokens[0]
    live = server.live(table_id)
    before = (live.state.fingerprint(), server.store.action_count(table_id))
    response = server.act(table_id, token, text, ply)
    assert response.status_code in (200, 409, 422), response.text
    if response.status_code == 200:
        assert server.store.action_count(table_id) == before[1] + 1
    else:
        assert isinstance(response.json()["detail"], str)
        assert (live.state.fingerprint(), server.store.action_count(table_id)) == before
    json.dumps(response.json())
