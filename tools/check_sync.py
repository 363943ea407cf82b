"""Fail when the notebooks are unclean or out of sync with the package or the README.

Runs `nbdev_clean`, `nbdev_export` and `tools/build_readme.py` and reports every file they change.
The files are left as the tools wrote them, so a developer can review and commit the fix.
"""
import hashlib, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

def snapshot():
    files = [*ROOT.glob('nbs/*.ipynb'), *ROOT.glob('rankmetrics_nb/**/*.py'), ROOT/'README.md']
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.exists()}

def changed(step, cmd):
    before = snapshot()
    subprocess.run(cmd, cwd=ROOT, check=True)
    after = snapshot()
    return [f'{step}: {f}' for f in sorted(set(before) | set(after)) if before.get(f) != after.get(f)]

def main():
    problems = (changed('nbdev_clean changed (unclean notebook)', [str(BIN/'nbdev_clean')])
                + changed('nbdev_export changed (notebooks and library out of sync)', [str(BIN/'nbdev_export')])
                + changed('README.md is not what nbs/index.ipynb generates', [sys.executable, 'tools/build_readme.py']))
    if problems:
        print('check_sync: FAILED\n  ' + '\n  '.join(problems) + '\nCommit the files as the tools left them.', file=sys.stderr)
        return 1
    print('check_sync: notebooks clean, package and README in sync')
    return 0

if __name__ == '__main__': sys.exit(main())
