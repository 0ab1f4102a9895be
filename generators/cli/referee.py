"""`dossier referee QUESTION ...` (rules questions answered with the rule) and `dossier rules search`.

Which questions exist depends on the game, so `referee` takes its arguments raw: it finds
the game named by `--game` (wherever it stands), loads that game's referee module, builds
a command for each of its questions, and hands the arguments over to them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Optional, get_args, get_origin, get_type_hints

import typer
from typer.core import TyperGroup
from typer.models import ParameterInfo

from ..core.errors import DataError, Problem, display_path
from ..core.game import Game
from ..core.names import NameIndex
from ..referee.rulings import Ruling, load_questions, module_path, table_for
from ..referee.variants import choose, variant_named
from .app import CONTEXT, JsonOption, app, print_json

CHOICE_HELP = ("A variant of the default game, another game's name or folder, or GAME:VARIANT. "
               "Default: the default game in its first variant.")
GAME_FLAGS = ("--game", "-g")
SHARED_PARAMETERS = ("ctx", "game_choice", "as_json")


@app.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True}, add_help_option=False)
def referee(ctx: typer.Context) -> None:
    """Answer a rules question from the game's data and cite the rule (`dossier referee --help` lists them)."""
    args = list(ctx.args)
    game = choose(game_choice_in(args)).game
    command = typer.main.get_command(question_app(game, load_questions(game)))
    command.main(args=args, prog_name="dossier referee", standalone_mode=True)


def game_choice_in(args: list[str]) -> str | None:
    """The value of the last --game (or -g) in `args`, as the question's own parser will read it."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg in GAME_FLAGS and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--game="):
            found = arg.partition("=")[2]
        elif arg.startswith("-g") and not arg.startswith("--") and len(arg) > 2:
            found = arg[2:]
    return found


class QuestionGroup(TyperGroup):
    """Finds a question whatever its case or punctuation ("cash_in" is cash-in), as names are found elsewhere."""

    def get_command(self, ctx, cmd_name):
        return super().get_command(ctx, NameIndex("question", self.commands).find(cmd_name) or cmd_name)


@dataclass(frozen=True)
class Shared:
    """The options given before the question's name, which the question's own override."""

    game_choice: str | None
    as_json: bool


GameChoice = Annotated[Optional[str], typer.Option(*GAME_FLAGS, help=CHOICE_HELP, metavar="VARIANT|GAME[:VARIANT]")]
Json = Annotated[bool, typer.Option("--json", help="Print the ruling as one JSON object.")]


def question_app(game: Game, questions: dict[str, Callable[..., Ruling]]) -> typer.Typer:
    """A command group with one command per question of `game`."""
    variants = ", ".join(game.info.variants)
    questions_app = typer.Typer(
        name="referee",
        help=(
            f"Answer a rules question about {game.info.title} from its data and rules, citing the rule that decides it.\n\n"
            "Without --json: the answer, the reason, the rules. With --json: one object with question, ruling, "
            "allowed (for \"may I\" questions), explanation, rules and the question's own fields.\n\n"
            "An answered question exits 0 even when the answer is no; a question that cannot be asked "
            "(unknown name, impossible number) exits 2.\n\n"
            + (f"{game.info.title} has the variants {variants}; --game {game.info.variants[0]} unless named.\n\n" if variants else "")
            + "Run `dossier referee QUESTION --help` for a question's options."
        ),
        epilog=f"The questions and their rules are in {display_path(module_path(game))}.",
        cls=QuestionGroup,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        subcommand_metavar="QUESTION [ARGS]...",
        context_settings=CONTEXT,
    )

    @questions_app.callback()
    def shared(ctx: typer.Context, game_choice: GameChoice = None, as_json: Json = False) -> None:
        ctx.obj = Shared(game_choice, as_json)

    for name, function in questions.items():
        questions_app.command(name)(question_command(game, name, function))
    return questions_app


def question_command(game: Game, name: str, function: Callable[..., Ruling]) -> Callable[..., None]:
    """A command for one question: its own parameters (the table left out) plus --game and --json."""
    own = list(inspect.signature(function).parameters.values())[1:]
    taken = [p.name for p in own if p.name in SHARED_PARAMETERS]
    if taken:
        raise DataError([Problem(module_path(game), f"QUESTIONS[{name!r}]", f"parameter {taken[0]!r} is reserved for the shared options", "bad-referee")])
    hints = get_type_hints(function, include_extras=True)
    own = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in own]
    for parameter in own:
        _choices_in_any_case(parameter.annotation)
    shared = [
        inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context),
        inspect.Parameter("game_choice", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=GameChoice),
        inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=Json),
    ]

    def answer(ctx: typer.Context, game_choice: str | None, as_json: bool, **options) -> None:
        before: Shared = ctx.obj
        chosen = game_choice if game_choice is not None else before.game_choice
        table = table_for(game, name, function, variant_named(game, chosen))
        ruling = function(table, **options)
        if not isinstance(ruling, Ruling):
            raise DataError([Problem(module_path(game), f"QUESTIONS[{name!r}]", f"returned {type(ruling).__name__}, not a Ruling", "bad-referee")])
        if as_json or before.as_json:
            print_json(ruling.to_json() | {"game": game.name, "variant": table.variant})
        else:
            typer.echo(ruling.to_text())

    answer.__signature__ = inspect.Signature(own + shared)  # type: ignore[attr-defined]
    answer.__annotations__ = {p.name: p.annotation for p in own + shared}
    answer.__doc__ = function.__doc__
    answer.__name__ = function.__name__
    return answer


def _choices_in_any_case(annotation) -> None:
    """Let an option or argument with fixed choices (an Enum) take them in any case, as names are found elsewhere."""
    if get_origin(annotation) is not Annotated:
        return
    base, *extras = get_args(annotation)
    types = [t for t in get_args(base) if t is not type(None)] or [base]  # Optional[Choice] too
    if any(isinstance(t, type) and issubclass(t, Enum) for t in types):
        for info in extras:
            if isinstance(info, ParameterInfo):
                info.case_sensitive = False


rules_app = typer.Typer(help="The project's rule summaries (the reference-card data), with their citations.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


@rules_app.command("search")
def rules_search(
    words: list[str] = typer.Argument(..., help="Words that must all appear (any case, accents optional), e.g. \"secret capital\"."),
    game: Optional[str] = typer.Option(None, *GAME_FLAGS, help="Only the summaries for a variant of the default game, another game's (by name or folder), or GAME:VARIANT.", metavar="VARIANT|GAME[:VARIANT]"),
    as_json: bool = JsonOption,
) -> None:
    """Find the rule summaries mentioning every word.

    Each is printed with its card, heading and the rules it cites. Finding nothing is an
    answer too: it prints "no rule summary mentions ..." and exits 0.
    """
    from ..referee.rule_search import near_words, search_rules

    choice = choose(game)
    text = " ".join(words)
    hits = search_rules(choice.game, text, choice.variant)
    if as_json:
        print_json([hit.to_json() for hit in hits])
        return
    if not hits:
        near = near_words(choice.game, text)
        typer.echo(f"no rule summary mentions {text!r}" + (f"; did you mean {', '.join(repr(w) for w in near)}?" if near else ""))
        return
    typer.echo(f"{len(hits)} rule {'summary mentions' if len(hits) == 1 else 'summaries mention'} {text!r}:")
    for hit in hits:
        typer.echo(f"\n{hit.where()}\n  {hit.text}\n  Rules: {'; '.join(hit.rules)}")
