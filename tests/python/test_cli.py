"""The cpaimon command's top-level behaviour: version, help, unknown commands."""
import re


def test_version(run_cli):
    r = run_cli("--version")
    assert r.returncode == 0
    assert re.fullmatch(r"cpaimon \d+\.\d+\.\d+\n", r.stdout)


def test_help_lists_commands(run_cli):
    r = run_cli("--help")
    assert r.returncode == 0
    assert "usage: cpaimon" in r.stdout
    assert "version" in r.stdout


def test_unknown_command_is_usage_error(run_cli):
    r = run_cli("frobnicate")
    assert r.returncode == 2
    assert "unknown command 'frobnicate'" in r.stderr


def test_no_arguments_is_usage_error(run_cli):
    r = run_cli()
    assert r.returncode == 2
    assert "usage:" in r.stderr
