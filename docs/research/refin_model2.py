# Research (docs/notes/refinalization.md): scoreboard allocation model variants, in Python.
# transform(I, drop_first, mode): I = instructions as refin_extract.fields() dicts; returns
# [(wr, rd, wait)] per instruction. Modes measured on the golden corpus and probes:
#   5  interference = pending together anywhere (on entry before waits, or after)
#   9  as 5, but a backward branch's waits do not retire what crosses the backward edge
#   11 as 5, plus: at a backward branch's target, what arrives over the edge (before the
#      branch's waits) meets what is pending there on entry   <- src/mercury/refinalize.cpp
#   0-4, 6-8, 10: rejected variants (range-based loop rules), kept for the record.
from refin_cfg import succs
START={0x981:2,0x9a3:5}
def ctl(f): return (f['wr'],f['rd'],f['wait'])
def transform(I, drop_first, loop=0):
    n=len(I); S=succs(I); P=[[] for _ in range(n)]
    for i,s in enumerate(S):
        for j in s: P[j].append((i, j<=i))
    orig={}
    gen=[[] for _ in range(n)]
    for i,f in enumerate(I):
        for kind in ('rd','wr'):
            if f[kind]!=7: orig[(i,kind)]=f[kind]; gen[i].append((i,kind))
    def flow(ignore_back):
        OUT=[set() for _ in range(n)]; BEF=[set() for _ in range(n)]
        IN=[set() for _ in range(n)]; W=[set() for _ in range(n)]
        changed=True
        while changed:
            changed=False
            for i in range(n):
                st=set()
                for p,back in P[i]:
                    st|= (BEF[p]|set(gen[p])) if (back and ignore_back) else OUT[p]
                w={x for x in st if I[i]['wait']>>orig[x]&1}
                if ignore_back==2:
                    w|={x for x in st if x[0]!=i and any(orig[g]==orig[x] for g in gen[i])}
                W[i]=w; IN[i]=st-w
                o=IN[i]|set(gen[i])
                if st!=BEF[i]: BEF[i]=st; changed=True
                if o!=OUT[i]: OUT[i]=o; changed=True
        return IN,W,BEF,OUT
    INo,waits,BEFo,OUTo=flow(False)
    loops=[(j,i) for i in range(n) for j in S[i] if j<i]
    INl=flow(True)[0] if loop in (1,2) else INo
    co={}
    if loop in (9,10):
        _,_,BEFo,OUTo=flow(2 if loop==10 else True)
    extra=[]
    if loop==11:
        for b in range(n):
            for h in S[b]:
                if h<b: extra.append(BEFo[h]|BEFo[b]|set(gen[b]))
    if loop in (5,6,7,8,9,10,11):
        for st in BEFo+OUTo+extra:
            for a in st:
                co.setdefault(a,set()).update(st)
    group={}
    order=sorted(orig, key=lambda k:(k[0],0 if k[1]=='rd' else 1))
    for k in order:
        mates=[x for x in INo[k[0]] if orig[x]==orig[k]]
        group[k]=group[mates[0]] if mates else k
    prods=[k for k in order if not (drop_first and k[0]==0)]
    assign={}
    for k in prods:
        g=group[k]
        if g in assign and g!=k: assign[k]=assign[g]; continue
        i=k[0]
        busy={assign[x] for x in INo[i] if x in assign}|{assign[x] for x in assign if x[0]==i}
        if loop in (5,6,7,8,9,10,11):
            busy|={assign[x] for x in co.get(k,()) if x in assign and x!=k and group.get(x)!=group[k]}
        if (loop==3 and k[1]=='rd') or (loop in (4,6) and k[1]=='rd' and I[i]['wr']==7) or (loop==7 and k[1]=='rd' and I[i]['wr']==7 and (I[i]['lo']>>12&15)!=7):
            for (a,b) in loops:
                if a<=i<=b: busy|={assign[x] for x in assign if a<=x[0]<=b}
        if loop==8 and k[1]=='rd' and I[i]['wr']==7 and (I[i]['lo']>>12&15)!=7:
            inner=[(b-a,a,b) for (a,b) in loops if a<=i<=b]
            if inner:
                _,a,b=min(inner); busy|={assign[x] for x in assign if a<=x[0]<=b}
        if loop in (1,2):
            busy|={assign[x] for x in assign if k in INl[x[0]] and (loop!=2 or k[1]=='rd')}
        s=START.get(I[i]['op'],0) if k[1]=='wr' else 0
        free=[x for x in range(6) if x not in busy]
        cand=[x for x in free if x>=s] or free or [0]
        assign[k]=cand[0]
    out=[]
    for i,f in enumerate(I):
        wr=assign.get((i,'wr'),7); rd=assign.get((i,'rd'),7)
        w=0
        for x in waits[i]:
            if x in assign: w|=1<<assign[x]
        out.append((wr,rd,w))
    return out
