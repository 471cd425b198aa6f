"""``holotable kyrum``: tools for Black Hole: Kyrum content packs.

``holotable kyrum validate PACK`` reports every problem of a pack (broken references, missing or
unreachable scripts, out-of-range values, schema errors) with file, record and field; exit status 1
when there is any error (warnings alone exit 0).
"""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(name="kyrum", help="Black Hole: Kyrum campaigns and content-pack tools.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)


@app.command("validate")
def validate_command(
    pack: Annotated[str, typer.Argument(metavar="PACK", help="A pack directory or the id of a shipped pack.")],
    strict: Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")] = False,
) -> None:
    """Validate a Kyrum content pack and list every problem found."""
    from holotable.games.kyrum.pack import check_pack

    built, problems = check_pack(pack)
    errors = [p for p in problems if p.level == "error"]
    warnings = [p for p in problems if p.level == "warning"]
    for problem in problems:
        typer.echo(str(problem))
    if built is not None and not errors:
        main = len(built.main_codes())
        typer.echo(f"OK: pack {built.pack_id!r} ({len(built.scripts)} scripts, {main} main scripts, "
                   f"{built.schedule['length']} games); {len(warnings)} warning(s)")
    else:
        typer.echo(f"FAILED: {len(errors)} error(s), {len(warnings)} warning(s)")
    if errors or (strict and warnings):
        raise typer.Exit(1)


from . import campaign_commands  # noqa: E402  (the new/continue/status/... commands join this app)

campaign_commands.register(app)
