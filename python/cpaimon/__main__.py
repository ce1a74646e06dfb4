"""The `cpaimon` command from Python: the `cpaimon` entry point of an installed package and
`python -m cpaimon ...` both run the native command with the given arguments.

The command is a C executable: installed packages carry it in cpaimon/_bin/; a developer's build
tree ($CPAIMON_BUILD, else <repo>/build) has it at its top."""
import os
import pathlib
import sys


def executable():
    """The path of the native `cpaimon` command this package runs."""
    here = pathlib.Path(__file__).resolve().parent
    override = os.environ.get("CPAIMON_BUILD")
    candidates = [pathlib.Path(override) / "cpaimon"] if override else []
    candidates += [here / "_bin" / "cpaimon", here.parents[1] / "build" / "cpaimon"]
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError("cpaimon's command is not built; looked for "
                            + ", ".join(str(p) for p in candidates))


def main(argv=None):
    """Replaces this process with the native command (exit status and signals are its own)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        path = executable()
    except FileNotFoundError as e:
        print(f"cpaimon: {e}", file=sys.stderr)
        return 127
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, ["cpaimon", *args])


if __name__ == "__main__":
    sys.exit(main())
