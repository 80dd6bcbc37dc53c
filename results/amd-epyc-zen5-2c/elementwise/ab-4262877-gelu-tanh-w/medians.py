import json,sys,glob,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/*.json')):
    v=f.split('/')[-1].rsplit('.',2)[0]
    for b in json.load(open(f))['benchmarks']:
        if b.get('aggregate_name')=='median':
            d[(b['op'],b['dtype'],v)].append(round(b['GBps'],1))
for k in sorted(d): print(*k, d[k])
