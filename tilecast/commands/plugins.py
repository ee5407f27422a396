"""`tilecast plugins`: which plugins a session would load, and the hooks each implements."""

from __future__ import annotations

import argparse

from tilecast.commands.args import add_plugin_options
from tilecast.pluginmanager import describe, plugin_manager


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "plugins",
        help="list the plugins that are loaded and the hooks each implements",
        description="The built-in plugins, then those installed through the 'tilecast' "
        "entry-point group.",
    )
    add_plugin_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows = describe(plugin_manager(disabled=args.disabled_plugins))
    width = max((len(name) for name, _ in rows), default=0)
    for name, hooks in rows:
        print(f"{name:<{width}}  {', '.join(hooks) or '(no hooks)'}")
    print(f"{len(rows)} plugins")
    return 0
