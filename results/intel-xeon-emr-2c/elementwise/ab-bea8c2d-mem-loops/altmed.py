import json,sys,glob,collections,statistics
out=sys.argv[1]
res=collections.defaultdict(list)
for f in sorted(glob.glob(out+'/*.json')):
    v=f.split('/')[-1].split('.')[0]
    for b in json.load(open(f))['benchmarks']:
        if b['name'].endswith('_median'):
            key='/'.join(b['name'].split('/')[1:]).replace('_median','')
            res[(key,v)].append(b.get('GBps'))
for (k,v),xs in sorted(res.items()): print('%-50s %-6s med %.1f  [%s]'%(k,v,statistics.median(xs),' '.join('%.1f'%x for x in xs)))
