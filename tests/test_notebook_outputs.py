"""The notebooks' saved outputs, as a reader of a clone (or of GitHub's rendering) meets them: no build machine's paths
(a home, a work folder, a kernel's temporary cell file, site-packages) and no memory addresses."""
import json, re
from pathlib import Path

NBS = Path(__file__).resolve().parents[1] / 'nbs'
MACHINE = re.compile(r'(?<![\w.~-])/(?:work|home|Users|root|builds|runner|mnt|srv)/[^\s\'"<>]+|/tmp/ipykernel_\w+|site-packages/|object at 0x[0-9a-f]+')


def machine_bits(nb: dict) -> list:
    "(cell id, what) for each output text that names the machine it ran on"
    out = []
    for c in nb['cells']:
        for o in c.get('outputs', []):
            texts = [o.get('text', '')] + [v for k, v in (o.get('data') or {}).items() if k.startswith('text/')]
            for t in texts:
                for m in MACHINE.finditer(''.join(t) if isinstance(t, list) else t): out.append((c.get('id'), m[0]))
    return out


def test_saved_outputs_name_no_machine():
    found = {p.name: bits for p in sorted(NBS.glob('*.ipynb')) if (bits := machine_bits(json.loads(p.read_text(encoding='utf-8'))))}
    assert found == {}, found


def test_the_check_sees_a_path():
    nb = {'cells': [{'id': 'x', 'outputs': [{'name': 'stderr', 'text': ['/work/wt/rankmetrics_nb/a.py:3: TieWarning: ...\n']},
                                            {'data': {'text/plain': ['<Foo object at 0x7f3a2b>']}}]}]}
    assert [w for _, w in machine_bits(nb)] == ['/work/wt/rankmetrics_nb/a.py:3:', 'object at 0x7f3a2b']
