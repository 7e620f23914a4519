"""Issue 21: a seeded fuzz of every command, bounded in time and memory.

A worker subprocess (address space capped with ``resource.setrlimit``) takes small valid
commands (roll, duel, value, compare, match, sweep, fair-cost, report), mutates one thing
in each (an option's value, an added option, or a byte-level / YAML-level mutation of an
input file), runs it in-process and records the exit code and stderr.  Every try must end
with exit code 0 or 2; a 2 with exactly one ``error:`` line (a config file's problems may
follow it, at most ``MAX_REPORTED`` + 1 lines) and never a traceback.  The worker stops
starting tries after ``BUDGET`` seconds, so the test takes about a minute whatever the load.
"""

from __future__ import annotations

import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from analyzer.config.loader import MAX_REPORTED

REPO = Path(__file__).resolve().parents[1]
SEED = 21
BUDGET = 40.0  # seconds of tries in the worker
TRY_LIMIT = 40  # seconds one try may take before it counts as a hang
MEMORY_CAP = 3 * 1024**3  # bytes of address space of the worker

BAD_VALUES = [
    "nan", "inf", "-inf", "-1", "0", "1e9", str(2**63), str(2**70), "", "garbage", "1.5",
    "range:nan", "range:inf", "range:1e9", "range -3", "melee:3", "x" * 300, "true",
]  # fmt: skip
ADDED_OPTIONS = [
    "--seed", "--trials", "--start", "--max-rounds", "--threads", "--opt", "--until-ci",
    "--scheduler", "--chunk", "--format", "--matches", "--first", "--low", "--high",
]  # fmt: skip


def _files() -> dict[str, Path]:
    configs = REPO / "configs"
    return {
        "d20_units": configs / "d20" / "units.yaml",
        "rapture_a": configs / "rapture" / "lists" / "angels_vanguard.yaml",
        "rapture_b": configs / "rapture" / "lists" / "icnun_raiders.yaml",
        "heroscape_field": configs / "experiments" / "fields" / "heroscape_field.yaml",
    }


D20_SPEC = """\
name: fuzz-d20
system: d20
metric: {kind: duel, a: Telepath, b: Trooper}
grid:
  pd: {kind: stat, unit: Telepath, field: physical_defense, values: [17, 19], step: buff}
trials: 1024
block_size: 512
seed: 11
"""


def base_commands(work: Path) -> list[list[str]]:
    """Small valid commands, one or more per command of the CLI (inputs under ``work``)."""
    f = _files()
    spec = work / "spec.yaml"
    spec.write_text(D20_SPEC, encoding="utf-8")
    report_dir = _report_source(work)
    return [
        ["roll", "d20", "shot", "--skill", "4", "--power", "3", "--defense", "12",
         "--trials", "1000"],
        ["duel", "d20", "--units", str(f["d20_units"]), "--a", "Telepath", "--b", "Trooper",
         "--start", "range:20", "--trials", "200", "--seed", "5"],
        ["duel", "heroscape", "--a", "Gelryie Vanguards", "--b", "Agent SI-4X",
         "--start", "melee", "--trials", "200"],
        ["value", "d20", "--units", str(f["d20_units"]), "--trials", "16", "--max-rounds", "3",
         "--out", str(work / "value")],
        ["compare", "rapture", "--lists", str(f["rapture_a"]), str(f["rapture_b"]),
         "--matches", "2", "--out", str(work / "compare")],
        ["match", "rapture", "--list-a", str(f["rapture_a"]), "--list-b", str(f["rapture_b"]),
         "--matches", "2", "--seed", "3"],
        ["sweep", str(spec), "--workers", "0", "--no-charts", "--out", str(work / "sweep")],
        ["fair-cost", "heroscape", "--unit", "Agent SI-4X", "--field",
         str(f["heroscape_field"]), "--trials", "4096", "--low", "1", "--high", "2",
         "--out", str(work / "fair-cost")],
        ["report", str(report_dir)],
    ]  # fmt: skip


def mutate_file(rng: random.Random, source: Path, target: Path) -> str:
    """A damaged copy of ``source`` at ``target``; returns the kind of damage."""
    data = source.read_bytes()
    kind = rng.choice(
        ["truncate", "flip", "nul", "utf16", "number", "bool", "alias_bomb", "deep", "empty"]
    )
    if kind == "truncate":
        data = data[: rng.randrange(len(data))]
    elif kind == "flip":
        at = rng.randrange(len(data))
        data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
    elif kind == "nul":
        at = rng.randrange(len(data))
        data = data[:at] + b"\x00" + data[at:]
    elif kind == "utf16":
        data = data.decode("utf-8").encode("utf-16")
    elif kind in ("number", "bool"):
        text = data.decode("utf-8")
        digits = [i for i, c in enumerate(text) if c.isdigit() and not text[i - 1].isalnum()]
        if digits:
            at = rng.choice(digits)
            end = at
            while end < len(text) and text[end].isdigit():
                end += 1
            new = "true" if kind == "bool" else rng.choice(["1e300", ".nan", str(10**12), "-5"])
            text = text[:at] + new + text[end:]
        data = text.encode("utf-8")
    elif kind == "alias_bomb":
        lines = ["x0: &x0 [a, a, a, a, a, a, a, a, a]"]
        lines += [f"x{k}: &x{k} [" + ", ".join([f"*x{k - 1}"] * 9) + "]" for k in range(1, 9)]
        data = data + ("\n".join(lines) + "\n").encode()
    elif kind == "deep":
        data = data + b"deep: " + b"[" * 5000 + b"]" * 5000 + b"\n"
    else:
        data = b""
    target.write_bytes(data)
    return kind


def mutate(rng: random.Random, argv: list[str], work: Path, n: int) -> tuple[list[str], str]:
    """One mutation of ``argv``: a bad option value, an added option, or a damaged file."""
    argv = list(argv)
    files = [i for i, a in enumerate(argv) if a.endswith(".yaml")]
    values = [i for i in range(1, len(argv)) if argv[i - 1].startswith("--")]
    choice = rng.random()
    if files and choice < 0.4:
        i = rng.choice(files)
        target = work / f"mutated-{n}.yaml"
        kind = mutate_file(rng, Path(argv[i]), target)
        argv[i] = str(target)
        return argv, f"file:{kind}"
    if values and choice < 0.75:
        i = rng.choice(values)
        argv[i] = rng.choice(BAD_VALUES)
        return argv, f"value:{argv[i - 1]}"
    option = rng.choice(ADDED_OPTIONS)
    value = rng.choice(BAD_VALUES)
    if option == "--opt":
        value = rng.choice(["bogus=1", "reaction=nan", "=", "first", "max_rounds=-1"])
    return [*argv, option, value], f"option:{option}"


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hang


def run_one(argv: list[str]) -> tuple[int | str, str]:
    """Run ``analyzer ARGV`` in this process: (exit code or 'crash'/'hang', stderr)."""
    from analyzer.cli import main

    err, out = io.StringIO(), io.StringIO()
    signal.alarm(TRY_LIMIT)
    try:
        with redirect_stderr(err), redirect_stdout(out):
            main(argv)
        code: int | str = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except _Hang:
        code = "hang"
    except BaseException:  # a traceback the user would have seen
        code = "crash"
        err.write(traceback.format_exc())
    finally:
        signal.alarm(0)
    return code, err.getvalue()


def worker(work: str, budget: float) -> None:
    """The subprocess: memory capped, tries until ``budget`` seconds, one JSON line each."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    signal.signal(signal.SIGALRM, _alarm)
    folder = Path(work)
    os.chdir(folder)
    bases = base_commands(folder)
    rng = random.Random(SEED)
    started = time.perf_counter()
    n = 0
    while time.perf_counter() - started < budget:
        base = bases[n % len(bases)]
        argv, what = mutate(rng, base, folder, n)
        t0 = time.perf_counter()
        code, err = run_one(argv)
        record = {
            "n": n, "command": argv[0], "what": what, "code": code, "stderr": err[-3000:],
            "seconds": round(time.perf_counter() - t0, 2), "argv": argv,
        }  # fmt: skip
        print(json.dumps(record), flush=True)
        n += 1


def _report_source(folder: Path) -> Path:
    """A folder for ``report``: a sweep's results table, damaged at random by the fuzz."""
    source = folder / "report-src"
    source.mkdir(exist_ok=True)
    (source / "results.parquet").write_bytes(b"PAR1" + os.urandom(64) + b"PAR1")
    return source


def failure(record: dict) -> str | None:
    """Why a try breaks the contract (None: it keeps it)."""
    code, err = record["code"], record["stderr"]
    if code not in (0, 2):
        return f"exit {code}"
    if "Traceback" in err:
        return "traceback"
    if code == 2:
        lines = [line for line in err.replace("\r", "\n").splitlines() if line.strip()]
        errors = [line for line in lines if line.startswith("error: ")]
        if len(errors) != 1:
            return f"{len(errors)} error lines"
        if len(lines) - lines.index(errors[0]) > MAX_REPORTED + 2:
            return f"{len(lines)} stderr lines"
    return None


def test_fuzz_every_command_exits_0_or_2_with_one_line_and_no_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "NUMBA_NUM_THREADS": "1"}
    code = f"from tests.test_fuzz import worker; worker({str(tmp_path)!r}, {BUDGET})"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUDGET + TRY_LIMIT + 120,
        check=False,
    )
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(records) >= 10, done.stderr[-3000:]  # enough tries to mean something
    tried = {r["command"] for r in records}
    assert {"roll", "duel", "value", "compare", "match", "sweep"} <= tried
    bad = [(failure(r), r["argv"], r["stderr"][-600:]) for r in records if failure(r)]
    assert not bad, json.dumps(bad[:5], indent=1)
