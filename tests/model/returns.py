#!/usr/bin/env python3
"""returns.py SPEC JSON: each function's "returns" in `jvmtigen model`'s
JSON holds the universal errors (the spec's error category universal-error,
success aside) and exactly the errors tests/docs/facts.py derives from the
XML on its own. Exit 1 and a line per function that differs."""
import json
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'docs'))
import facts  # noqa: E402

root = ET.parse(sys.argv[1]).getroot()
m = json.load(open(sys.argv[2], encoding='utf-8'))
universal = {e.get('id') for c in root.iter('errorcategory') if c.get('id') == 'universal-error'
             for e in c.iter('errorid') if e.get('num') != '0'}
by_id = {f['id']: f for f in m['functions']}
bad = 0
for fx in facts.visible(root, './/function'):
    f = by_id[fx.get('id')]
    got = {r['error'] for r in f['returns'] if r['origin'] != 'universal'}
    uni = {r['error'] for r in f['returns'] if r['origin'] == 'universal'}
    want = facts.expected_errors(fx)
    if got != want or uni != universal:
        bad += 1
        print('#', f['id'], sorted(got ^ want), sorted(uni ^ universal))
sys.exit(1 if bad else 0)
