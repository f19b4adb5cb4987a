"""``patience serve``."""
from __future__ import annotations


def cmd_serve(args) -> int:
    from . import create_app
    app = create_app()
    print(f"Patience Companion on http://{args.host}:{args.port}/  (Ctrl+C to stop)", flush=True)
    app.run(host=args.host, port=args.port, debug=False)
    return 0


def register(sub) -> None:
    p = sub.add_parser("serve", help="start the local web page")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.set_defaults(func=cmd_serve)
