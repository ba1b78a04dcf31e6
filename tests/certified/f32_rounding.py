# chad check --precision f32's float32 rounding of the exact value, tested
# on the identity function over random float32 values, the exact halfway
# points between neighbours (ties to even), their neighbouring doubles,
# subnormals and the overflow threshold: each reference must be Python's
# float32 rounding of the double (struct's 'f'; infinity where it overflows).
#   python3 tests/certified/f32_rounding.py CHAD PROGRAM   (PROGRAM: def idv (v : [real]) : [real] = v)
import json, math, random, struct, subprocess, sys
chad, prog = sys.argv[1], sys.argv[2]
rnd = random.Random(34)
xs = []
for _ in range(300):
    f = struct.unpack('<f', struct.pack('<I', rnd.getrandbits(31)))[0]
    if math.isinf(f) or math.isnan(f):
        continue
    b = struct.unpack('<I', struct.pack('<f', f))[0]
    g = struct.unpack('<f', struct.pack('<I', b + 1))[0]
    if math.isinf(g) or math.isnan(g):
        continue
    mid = (f + g) / 2               # exactly halfway: ties to even
    xs += [f, mid, math.nextafter(mid, 0), math.nextafter(mid, math.inf), -mid]
xs += [1.401298464324817e-45 / 2, 1.401298464324817e-45 * 0.75, 3.4028235677973366e+38,
       3.4028234663852886e+38 * (1 + 2 ** -25), 1.1754942106924411e-38, 1.1754943508222875e-38 * (1 - 2 ** -26)]
xs = [x for x in xs if math.isfinite(x)]
out = subprocess.run([chad, 'check', prog, '--args', json.dumps([xs]), '--candidate', json.dumps(xs),
                      '--precision', 'f32', '--json'], capture_output=True, text=True).stdout
d = json.loads(out)
bad = 0
for x, e in zip(xs, d['entries']):
    try:
        want = struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        want = math.copysign(math.inf, x)
    got = e['reference']
    got = {'+infinity': math.inf, '-infinity': -math.inf}.get(got, got) if isinstance(got, str) else got
    if got != want or e['verdict'] != 'correct':
        bad += 1
        print('mismatch', repr(x), got, want, e['verdict'])
print(f'{len(xs)} doubles, {bad} mismatches')
sys.exit(1 if bad else 0)
