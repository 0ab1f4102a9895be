"""`dossier referee QUESTION ...` (rules questions answered with the rule), `dossier referee position FILE`,
`dossier trust DIR` and `dossier rules search`.

Which questions exist depends on the game, so `referee` takes its arguments raw: it finds
the game named by `--game` (wherever it stands), loads that game's referee module (once the
folder is trusted), builds a command for each question from the question's own declaration
(`generators.referee.questions`), and hands the arguments over to them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..core.cards import variant_label
from ..core.errors import UnknownNameError, display_path
from ..core.game import Game
from ..core.names import NameIndex
from ..referee.game_code import Referee, ask, load_referee
from ..referee.position import COMMAND as POSITION
from ..referee.game_record import COMMAND as GAME
from ..referee.game_record import replay_file
from ..referee.position import check_position_file
from ..referee.questions import Question, Value
from ..referee.rulings import QuestionError, table_for
from ..referee.trust import forget, is_shipped, trust, trusted_folders
from ..referee.variants import choose, variant_named
from .app import CONTEXT, JsonOption, SummaryGroup, app, print_json

CHOICE_HELP = ("A variant of the default game, another game's name or folder, or GAME:VARIANT. "
               "Default: the default game in its first variant.")
GAME_FLAGS = ("--game", "-g")


@app.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True}, add_help_option=False)
def referee(ctx: typer.Context) -> None:
    """Answer a rules question from the game's data and cite the rule (`dossier referee --help` lists them)."""
    args = list(ctx.args)
    game = choose(game_choice_in(args)).game
    question_group(game, load_referee(game)).main(args=args, prog_name="dossier referee", standalone_mode=True)


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


class QuestionGroup(SummaryGroup):
    """A game's questions as commands, each built only when it is asked (all of them for --help), found whatever
    its case or punctuation ("cash_in" is cash-in); says plainly when a game has no position check."""

    game_title = "This game"
    builders: dict[str, Callable[[], Any]] = {}  # question name: a function building its command

    def list_commands(self, ctx) -> list[str]:
        return list(self.builders)

    def get_command(self, ctx, cmd_name):
        index = NameIndex("question", self.builders)
        found = index.find(cmd_name)
        if found is None and cmd_name == POSITION:
            raise QuestionError(f"{self.game_title} has no position check: its referee answers questions only")
        if found is None:
            if cmd_name.startswith("-"):
                return None  # an option where the question should be: the parser says what is wrong with it
            raise UnknownNameError(f"{self.game_title} question", cmd_name, index.closest(cmd_name) or list(self.builders))
        if found not in self.commands:
            self.add_command(self.builders[found](), found)
        return super().get_command(ctx, found)


@dataclass(frozen=True)
class Shared:
    """The options given before the question's name, which the question's own override."""

    game_choice: str | None
    as_json: bool


GameChoice = Annotated[Optional[str], typer.Option(*GAME_FLAGS, help=CHOICE_HELP, metavar="VARIANT|GAME[:VARIANT]")]
Json = Annotated[bool, typer.Option("--json", help="Print the answer as one JSON object.")]
SHARED = [
    inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context),
    inspect.Parameter("game_choice", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=GameChoice),
    inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=Json),
]


def question_group(game: Game, referee: Referee) -> QuestionGroup:
    """A command group with one command per question of `game`, and `position` when the game checks positions."""
    variants = ", ".join(game.info.variants)
    questions_app = typer.Typer(
        name="referee",
        help=(
            f"Answer a rules question about {game.info.title} from its data and rules, citing the rule that decides it.\n\n"
            "Without --json: the answer, the reason, the rules. With --json: one object with question, verdict, ruling, "
            "allowed (for \"may I\" questions), explanation, rules and the question's own fields.\n\n"
            "An answered question exits 0 even when the answer is no; a question that cannot be asked "
            "(unknown name, impossible number) exits 2.\n\n"
            + (f"{game.info.title} has the variants {variants}; --game {game.info.variants[0]} unless named.\n\n" if variants else "")
            + "Run `dossier referee QUESTION --help` for a question's options and a worked example."
        ),
        epilog=f"The questions and their rules are in {display_path(referee.file)}; unclear rules in docs/rulings.md.",
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

    group = typer.main.get_command(questions_app)
    group.game_title = game.info.title
    group.builders = {name: partial(_command, name, question_help(game, question), question.summary, question_command(game, referee, question))
                      for name, question in referee.questions.items()}
    if referee.position_check is not None:
        group.builders[POSITION] = partial(_command, POSITION, POSITION_HELP, POSITION_HELP.partition("\n")[0],
                                           position_command(game, referee))
    if referee.game_replay is not None:
        group.builders[GAME] = partial(_command, GAME, GAME_HELP, GAME_HELP.partition("\n")[0], game_command(game, referee))
    return group


def _command(name: str, help_text: str, summary: str, function: Callable[..., None]) -> Any:
    """One command built from a function whose signature typer reads."""
    single = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    single.command(name, help=help_text, short_help=summary)(function)
    return typer.main.get_command(single)


def question_help(game: Game, question: Question) -> str:
    """A question's help: summary, further help, its verdicts, its variants, and its worked example kept on one line."""
    parts = [question.summary]
    if question.details:
        parts.append(question.details)
    parts.append("Verdicts: " + ", ".join(str(v.value) for v in question.verdicts) + ".")
    if question.variants:
        labels = " or ".join(variant_label(game, v) or v for v in question.variants)
        parts.append(f"Asked in the {labels} variant only; without --game it is answered there.")
    parts.append(f"\b\nExample:\n  {question.example}")
    return "\n\n".join(parts)


def _annotation(value: Value) -> Any:
    """The typer annotation for one declared value."""
    base: Any = list[value.type] if value.many else value.type
    if value.optional and not value.many:
        base = Optional[base]
    extra = {"metavar": value.param.metavar} if value.param.metavar else {}
    if issubclass(value.type, Enum):
        extra["case_sensitive"] = False
    if value.is_option:
        return Annotated[base, typer.Option(value.param.flag, help=value.param.help, **extra)]
    return Annotated[base, typer.Argument(help=value.param.help, **extra)]


def question_command(game: Game, referee: Referee, question: Question):
    """A command for one question: its own values plus --game and --json."""
    own = [inspect.Parameter(v.name, inspect.Parameter.KEYWORD_ONLY, default=v.default, annotation=_annotation(v))
           for v in question.values]

    def answer(ctx: typer.Context, game_choice: str | None, as_json: bool, **values) -> None:
        before: Shared = ctx.obj
        named = variant_named(game, game_choice if game_choice is not None else before.game_choice)
        table = table_for(game, question.name, question.function, named)
        ruling = ask(referee, question, table, values)
        if as_json or before.as_json:
            print_json(ruling.to_json() | {"game": game.name, "variant": table.variant})
            return
        typer.echo(ruling.to_text())
        if named is None and question.variants:
            label = variant_label(game, table.variant)
            typer.echo(f"Answered in the {label} variant, the only one with this question.")

    answer.__signature__ = inspect.Signature(own + SHARED)  # type: ignore[attr-defined]
    answer.__name__ = question.function.__name__
    return answer


POSITION_HELP = """Check a whole position written as YAML against the rules: every problem at once, each with its line and rule.

Exit 0 when the position is legal, 1 when it breaks rules (each problem listed), 2 when the
file cannot be read or has the wrong shape (naming the line). The README shows a position file.

\b
Example:
  dossier referee position my-position.yaml --game long"""


def position_command(game: Game, referee: Referee):
    """The `position FILE` command for a game whose referee checks positions."""

    def check(ctx: typer.Context, file: Annotated[Path, typer.Argument(metavar="FILE", help="The position, as YAML.")],
              game_choice: GameChoice = None, as_json: Json = False) -> None:
        before: Shared = ctx.obj
        named = variant_named(game, game_choice if game_choice is not None else before.game_choice)
        report = check_position_file(referee, game, named, file)
        if as_json or before.as_json:
            print_json(report.to_json())
        else:
            typer.echo(report.to_text())
        if not report.is_legal:
            raise typer.Exit(1)

    return check


GAME_HELP = """Replay a whole game record, action by action, as a neutral adjudicator.

The record holds the starting position (start:) and the actions in order (actions:), each with its
power and what was drawn; docs/game-records.md shows one. Exit 0 when every action is legal (the
final position and the score), 1 at the first illegal action (its number, line and rule, and the
position before it), 2 when the file cannot be read or names what the game does not have.
--until N prints the position after action N.

\b
Example:
  dossier referee game docs/examples/first-round-1933.yaml --until 3"""


def game_command(game: Game, referee: Referee):
    """The `game FILE` command for a game whose referee replays records."""

    def replay(ctx: typer.Context, file: Annotated[Path, typer.Argument(metavar="FILE", help="The game record, as YAML.")],
               until: Annotated[Optional[int], typer.Option("--until", metavar="N", help="Stop after action N and print the position then.")] = None,
               game_choice: GameChoice = None, as_json: Json = False) -> None:
        before: Shared = ctx.obj
        named = variant_named(game, game_choice if game_choice is not None else before.game_choice)
        report = replay_file(referee, game, named, file, until)
        if as_json or before.as_json:
            print_json(report.to_json())
        else:
            typer.echo(report.to_text())
        if not report.replay.is_legal:
            raise typer.Exit(1)

    return replay


@app.command("trust")
def trust_command(
    folder: Optional[Path] = typer.Argument(None, metavar="DIR", help="A game folder whose referee.py you have read."),
    withdraw: bool = typer.Option(False, "--forget", help="Withdraw the trust given to DIR."),
    listing: bool = typer.Option(False, "--list", help="List the game folders trusted so far."),
) -> None:
    """Let a game folder's Python (its referee.py) run: Dossier refuses it until you trust it, and again after it changes.

    Games shipped with Dossier are trusted already. A game folder from elsewhere is code that runs
    with your rights; read its .py files first. The trust holds for the files as they are now.
    """
    if listing and (folder is not None or withdraw):
        raise QuestionError("--list takes no DIR and no --forget: `dossier trust --list` lists, "
                            "`dossier trust DIR --forget` withdraws")
    if listing:
        trusted = trusted_folders()
        for path, digest in trusted.items():
            typer.echo(f"{path}  sha256:{digest[:16]}")
        if not trusted:
            typer.echo("no game folder is trusted yet (the games shipped with Dossier need no trust); "
                       "`dossier trust DIR` trusts one")
        return
    if folder is None:
        raise QuestionError("name the game folder to trust, e.g. `dossier trust ./my-game`")
    folder = folder.expanduser()
    if not (folder / "game.yaml").is_file():
        raise QuestionError(f"{display_path(folder)}: not a game folder (no game.yaml)")
    if withdraw:
        said = "no longer trusted" if forget(folder) else "was not trusted"
        typer.echo(f"{display_path(folder)}: {said}")
        return
    if is_shipped(folder):
        typer.echo(f"{display_path(folder)}: shipped with Dossier, trusted already")
        return
    digest = trust(folder)
    typer.echo(f"{display_path(folder)}: trusted as it is now (sha256:{digest[:16]}); any change to its .py files withdraws it")


rules_app = typer.Typer(cls=SummaryGroup, help="The project's rule summaries (the reference-card data), with their citations.", no_args_is_help=True)
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
