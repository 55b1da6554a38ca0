#!/usr/bin/env python3
"""Differential check: JSONReader must accept exactly what CPython's json module accepts
(strict UTF-8, no NaN/Infinity), except lone surrogate escapes, which JSONReader rejects by
design, and must read the same values (strings, exact integers, IEEE bits of decimals).
Inputs are seeded mutations of Fuzz/corpus/json/ plus random token strings.

    python3 Fuzz/json-differential.py [COUNT]      (SEED=n to vary; exits 1 on a disagreement)
"""
import base64, json, os, random, struct, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
random.seed(int(os.environ.get("SEED","7")))
seeds = [open(os.path.join(d, f), 'rb').read() for d in [os.path.join(root, 'Fuzz/corpus/json')] for f in sorted(os.listdir(d))]
tokens = [b'{', b'}', b'[', b']', b',', b':', b'"', b'\\', b'0', b'1', b'-', b'.', b'e', b'E', b'+', b' ', b'\n', b'\t', b'\r',
          b'true', b'false', b'null', b'\\u', b'D800', b'DC00', b'\xc3\xa9', b'\xed\xa0\x80', b'\xef\xbb\xbf', b'\x00', b'\x1f', b'\x7f', b'\xff']
def mutate(b):
    b = bytearray(b)
    for _ in range(random.randint(1, 4)):
        op = random.randrange(4)
        at = random.randint(0, len(b))
        if op == 0 and b: b[min(at, len(b)-1)] = random.randrange(256)
        elif op == 1 and b: del b[min(at, len(b)-1)]
        elif op == 2: b[at:at] = random.choice(tokens)
        else:
            s = random.choice(seeds); i = random.randint(0, len(s)); b[at:at] = s[i:i+random.randint(0, 10)]
    return bytes(b)
def gen():
    if random.random() < 0.3:
        return b''.join(random.choice(tokens) for _ in range(random.randint(0, 12)))
    return mutate(random.choice(seeds))
def canonical(v):
    if v is None: return 'null'
    if v is True: return 'true'
    if v is False: return 'false'
    if isinstance(v, int): return str(v)
    if isinstance(v, float): return 'f' + struct.pack('>d', v).hex()
    if isinstance(v, str): return json.dumps(v, ensure_ascii=True)
    if isinstance(v, list): return '[' + ','.join(canonical(x) for x in v) + ']'
    return '{' + ','.join(json.dumps(k, ensure_ascii=True) + ':' + canonical(x) for k, x in v.items()) + '}'

def has_lone(v):
    if isinstance(v, str): return any(0xD800 <= ord(c) <= 0xDFFF for c in v)
    if isinstance(v, list): return any(has_lone(x) for x in v)
    if isinstance(v, dict): return any(has_lone(k) or has_lone(x) for k, x in v.items())
    return False

def python_reads(b):
    """The canonical value CPython reads, '-' when it rejects, None when out of scope."""
    if b.startswith(b'\xef\xbb\xbf'): b = b[3:]
    try: s = b.decode('utf-8', 'strict')
    except UnicodeDecodeError: return '-'
    def bad(x): raise ValueError(x)
    try: v = json.loads(s, parse_constant=bad)
    except (ValueError, RecursionError): return '-'
    if has_lone(v): return None
    return canonical(v)

count = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
inputs = [gen() for _ in range(count)]
build = tempfile.mkdtemp(prefix='json-differential.')
classify = os.path.join(build, 'classify')
# The whole Contracts module, subfolders included (Models/, Schema/, V1/, Validation/).
sources = sorted(os.path.join(folder, f) for folder, _, files in os.walk(os.path.join(root, 'Sources/Contracts'))
                 for f in files if f.endswith('.swift'))
subprocess.run(['swiftc', '-O', '-swift-version', '6', '-package-name', 'PushContracts', '-module-name', 'JSONDifferential', *sources,
                os.path.join(root, 'Fuzz/JSONDifferential/main.swift'), '-o', classify], check=True)
res = subprocess.run([classify], input=b'\n'.join(base64.b64encode(x) for x in inputs) + b'\n', capture_output=True).stdout.decode().split('\n')
dis = 0; acc = 0
for x, ours in zip(inputs, res):
    theirs = python_reads(x)
    if theirs is None: continue
    acc += theirs != '-'
    if ours != theirs:
        dis += 1
        if dis <= 15: print('DISAGREE JSONReader=%s python=%s input=%r' % (ours[:80], theirs[:80], x))
print('inputs', len(inputs), 'python-accepted', acc, 'disagreements', dis)
sys.exit(1 if dis else 0)
