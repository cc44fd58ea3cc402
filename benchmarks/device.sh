#!/usr/bin/env bash
# The scale benchmarks on a big machine (issue 32): install the project's wheel and its
# dependencies from wheels carried in .whl/ (no network), then run, each part under its
# own time budget so that the whole ends within about 9 minutes:
#   1. benchmarks/scale.py at 1M, 10M, 100M games, OGS final ratings only (half the budget);
#   2. benchmarks/ingest.py at 200 000 server records (--form server): one process,
#      --jobs 2, 4, 16 (those the machine has cores for), the reader and the history,
#      speed-ups, identical results, and (f), what no worker takes;
#   3. benchmarks/scale.py at 1M, 10M, 100M games, GoR (what is left);
#   a size projected to overrun its part's budget is skipped (or stopped), and said so.
# Everything it prints goes to $OUT (machine.txt, install.txt, ingest.txt, scale-*.txt,
# scale-*.json) and to stdout.
#
# The wheels, made on a machine with network, from the repository root:
#   rm -rf .whl && mkdir .whl
#   python3 -m pip download --only-binary=:all: --python-version 3.12 \
#       --platform manylinux2014_x86_64 -d .whl numpy msgspec pluggy sgfmill defusedxml
#   python3 -m pip wheel --no-deps -w .whl .        # the project's own (pure Python)
# (sgfmill 1.1.1 has a py3-none-any wheel on PyPI: no sdist build needed.)
#
# Run:   OUT=/some/folder bash benchmarks/device.sh
#        (on a lent machine whose runner sets $OUT and copies the working tree: the command
#        `bash benchmarks/device.sh`, carrying the git-ignored folder .whl; about 9 minutes)
# Small: SMALL=1 OUT=/tmp/out PYTHON=python3.12 bash benchmarks/device.sh   (a smoke run:
#        a few thousand records, 0.1M-1M games, about a minute on 2 cores)
# Knobs: PYTHON (default python3.12, else python3), WHEELS (default <repo>/.whl),
#        BUDGET (seconds for the whole, default 530).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/device-out}"
WHEELS="${WHEELS:-$ROOT/.whl}"
BUDGET="${BUDGET:-530}"
SMALL="${SMALL:-0}"
PYTHON="${PYTHON:-$(command -v python3.12 || command -v python3)}"
mkdir -p "$OUT"
START=$(date +%s)
left() { echo $((BUDGET - ($(date +%s) - START))); }
say() { echo "$*" | tee -a "$OUT/summary.txt"; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cores: $(nproc)"
  grep -m1 "model name" /proc/cpuinfo || true
  free -g | head -2 || true
  "$PYTHON" --version
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"

# -- install: a fresh virtual environment, wheels only, no index -------------------------
# (where the interpreter has no venv/ensurepip: pip --target into a folder; with no pip
# at all: the wheels unpacked into a folder, which is what installing them amounts to)
WORK="$(mktemp -d)"
PY="$WORK/venv/bin/python"
if "$PYTHON" -m venv "$WORK/venv" > "$OUT/install.txt" 2>&1 \
    && "$PY" -m pip install --no-index --find-links "$WHEELS" sodos-plugin >> "$OUT/install.txt" 2>&1; then
  say "install: a fresh venv, pip from $WHEELS"
elif "$PYTHON" -m pip install --no-index --find-links "$WHEELS" --target "$WORK/site" \
    sodos-plugin >> "$OUT/install.txt" 2>&1; then
  PY="$PYTHON"; export PYTHONPATH="$WORK/site"
  say "install: no venv; pip --target $WORK/site"
else
  PY="$PYTHON"; export PYTHONPATH="$WORK/site"
  "$PYTHON" - "$WHEELS" "$WORK/site" >> "$OUT/install.txt" 2>&1 <<'PYEOF'
import sys, zipfile, pathlib
wheels, site = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for wheel in sorted(wheels.glob("*.whl")):
    if "cp3" in wheel.name and "cp312" not in wheel.name and "abi3" not in wheel.name:
        continue
    zipfile.ZipFile(wheel).extractall(site)
    print("unpacked", wheel.name)
PYEOF
  say "install: no venv and no pip; the wheels unpacked into $WORK/site"
fi
# the benchmarks run from a folder outside the repository: the installed copy is imported
cd "$(mktemp -d)"
"$PY" -c "import sodos_plugin, numpy, msgspec, pluggy, sgfmill, defusedxml; print('installed', \
sodos_plugin.__file__, 'numpy', numpy.__version__)" | tee -a "$OUT/install.txt"
[ "${PIPESTATUS[0]}" = 0 ] || { say "FAILED: the installed package does not import (install.txt)"; exit 2; }
say "install done at $(( $(date +%s) - START )) s"

# -- 1. scale: OGS final ratings only (the memory target) ---------------------------
if [ "$SMALL" = 1 ]; then
  SIZES=100000,300000,1000000
else
  SIZES=1000000,10000000,100000000
fi
ogs_budget=$(( $(left) / 2 ))
timeout $(( ogs_budget + 60 )) "$PY" "$ROOT/benchmarks/scale.py" --systems ogs --sizes "$SIZES" \
  --budget "$ogs_budget" --json "$OUT/scale-ogs.json" 2>&1 | tee "$OUT/scale-ogs.txt"
say "scale ogs exit ${PIPESTATUS[0]} at $(( $(date +%s) - START )) s"
# -- 2. ingest -------------------------------------------------------------------------
if [ "$SMALL" = 1 ]; then
  RECORDS=3000; REPEAT=1; SAMPLE=300; INGEST_LIMIT=150; MINPAR=0
else
  RECORDS=200000; REPEAT=1; SAMPLE=5000; INGEST_LIMIT=$(( $(left) - 150 )); MINPAR=10000
fi
[ "$INGEST_LIMIT" -lt 30 ] && INGEST_LIMIT=30
timeout "$INGEST_LIMIT" "$PY" "$ROOT/benchmarks/ingest.py" --records "$RECORDS" \
  --repeat "$REPEAT" --baseline-records "$SAMPLE" --jobs-list 2,4,16 --min-parallel "$MINPAR" \
  --form server 2>&1 | tee "$OUT/ingest.txt"
status=${PIPESTATUS[0]}
[ "$status" = 124 ] && say "ingest: stopped at its budget of $INGEST_LIMIT s (rows above are complete)"
say "ingest exit $status at $(( $(date +%s) - START )) s"

# -- 3. scale: GoR, with what is left ----------------------------------------------
gor_budget=$(( $(left) - 10 ))
if [ "$gor_budget" -gt 20 ]; then
  timeout $(( gor_budget + 30 )) "$PY" "$ROOT/benchmarks/scale.py" --systems gor \
    --sizes "$SIZES" --budget "$gor_budget" --json "$OUT/scale-gor.json" 2>&1 \
    | tee "$OUT/scale-gor.txt"
  say "scale gor exit ${PIPESTATUS[0]} at $(( $(date +%s) - START )) s"
else
  say "scale gor: skipped (no budget left)"
fi
say "done in $(( $(date +%s) - START )) s"
