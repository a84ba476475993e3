"""``workbench completion bash|zsh|fish``: a shell completion script, written from the parser
itself (every subcommand, its options, and the choices of an option that has them), so it
never lists an option the command does not take.

    source <(workbench completion bash)          # ~/.bashrc
    source <(workbench completion zsh)           # ~/.zshrc (through bashcompinit)
    workbench completion fish | source           # ~/.config/fish/config.fish
"""

from __future__ import annotations

import argparse

from . import common

SHELLS = ("bash", "zsh", "fish")
HELP = "print a shell completion script (bash, zsh or fish)"


def add_parser(subparsers, parser: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser("completion", help=HELP, description=__doc__.split("\n\n")[0],
                              epilog=common.examples("source <(workbench completion bash)",
                                                     "workbench completion fish | source"),
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=SHELLS)
    p.set_defaults(func=lambda args: run(args, parser))


def _commands(parser: argparse.ArgumentParser) -> dict:
    """``{name: (help, [(option strings, choices or None, takes a value, help)])}``, and
    ``""`` for the top level."""
    def options(p):
        out = []
        for a in p._actions:
            if a.option_strings:
                out.append((a.option_strings, list(a.choices) if a.choices else None,
                            a.nargs != 0, a.help or ""))
        return out
    found = {"": ("", options(parser))}
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            helps = {c.dest: c.help or "" for c in a._choices_actions}
            for name, sub in a.choices.items():
                found[name] = (helps.get(name, ""), options(sub))
    return found


def bash(parser) -> str:
    cmds = _commands(parser)
    names = " ".join(n for n in cmds if n)
    top = " ".join(o for opts in [cmds[""][1]] for s, *_ in opts for o in s)
    per_cmd, choices = [], []
    for name, (_, opts) in cmds.items():
        if not name:
            continue
        per_cmd.append(f'        {name}) opts="{" ".join(o for s, *_ in opts for o in s)}" ;;')
        for strings, values, _, _ in opts:
            if values:
                for o in strings:
                    choices.append(f'        "{name} {o}") COMPREPLY=($(compgen -W "{" ".join(map(str, values))}" -- "$cur")); return ;;')
    if "completion" in cmds:
        choices.append(f'        "completion completion") COMPREPLY=($(compgen -W "{" ".join(SHELLS)}" -- "$cur")); return ;;')
    return f"""# workbench completion for bash: source <(workbench completion bash)
_workbench() {{
    local cur prev cmd opts i
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in
            -*) ;;
            *) cmd="${{COMP_WORDS[i]}}"; break ;;
        esac
    done
    if [ -z "$cmd" ]; then
        COMPREPLY=($(compgen -W "{names} {top}" -- "$cur"))
        return
    fi
    case "$cmd $prev" in
{chr(10).join(choices)}
    esac
    case "$cmd" in
{chr(10).join(per_cmd)}
        *) opts="" ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -o bashdefault -F _workbench workbench
"""


def zsh(parser) -> str:
    return ("# workbench completion for zsh: source <(workbench completion zsh)\n"
            "autoload -U +X bashcompinit && bashcompinit\n" + bash(parser).split("\n", 1)[1])


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish(parser) -> str:
    cmds = _commands(parser)
    names = [n for n in cmds if n]
    out = ["# workbench completion for fish: workbench completion fish | source",
           "complete -c workbench -e"]
    for name in names:
        out.append(f"complete -c workbench -f -n '__fish_use_subcommand' -a {name} "
                   f"-d {_fish_quote(cmds[name][0])}")
    for name in names:
        cond = f"'__fish_seen_subcommand_from {name}'"
        for strings, values, takes, help_ in cmds[name][1]:
            flags = " ".join(f"-l {o[2:]}" if o.startswith("--") else f"-s {o[1:]}"
                             for o in strings)
            more = ""
            if values:
                more = f" -x -a {_fish_quote(' '.join(map(str, values)))}"
            elif takes:
                more = " -r -F"
            out.append(f"complete -c workbench -n {cond} {flags}{more} -d {_fish_quote(help_[:80])}")
    out.append(f"complete -c workbench -n '__fish_seen_subcommand_from completion' -x -a "
               f"{_fish_quote(' '.join(SHELLS))}")
    return "\n".join(out) + "\n"


def run(args, parser) -> int:
    common.write_text({"bash": bash, "zsh": zsh, "fish": fish}[args.shell](parser))
    return common.EXIT_OK
