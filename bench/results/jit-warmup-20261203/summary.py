import collections,re,sys
rows=[l.split() for l in open(sys.argv[1]) if len(l.split())==6]
runs=collections.defaultdict(list)
for x in rows: runs[x[1]].append(x)
for role,r in runs.items():
    times=sorted(set(int(x[0]) for x in r))
    print('%s (one line per sample, s since the first: compiler threads ticks / all threads ticks; 100 ticks = 1 CPU second; successive runs of this role follow each other)'%role)
    out=[]
    for i in range(1,len(times)):
        a={x[2]:int(x[4])+int(x[5]) for x in r if int(x[0])==times[i-1]}
        cur=[x for x in r if int(x[0])==times[i] and x[2] in a]
        c=sum(int(x[4])+int(x[5])-a[x[2]] for x in cur if 'Compiler' in x[3])
        tot=sum(int(x[4])+int(x[5])-a[x[2]] for x in cur)
        out.append('%d:%d/%d'%(times[i]-times[0],c,tot))
    print('  '+' '.join(out))
