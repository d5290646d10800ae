from refin_cfg import *
from collections import Counter
START={0x981:2,0x9a3:5}
def dataflow(I, S, P, assign, waits):
    """assign: dict (i,kind)->sb ; waits: list of sets of producer keys cleared at i (by identity).
       returns IN pending sets of producer keys (after waits of i)"""
    n=len(I); OUT=[set() for _ in range(n)]; IN=[set() for _ in range(n)]
    changed=True
    while changed:
        changed=False
        for i in range(n):
            st=set()
            for p in P[i]: st|=OUT[p]
            st-=waits[i]
            IN[i]=st
            o=st|{k for k in assign if k[0]==i}
            if o!=OUT[i]: OUT[i]=o; changed=True
    return IN
def transform(I, drop_first):
    n=len(I); S=succs(I); P=[[] for _ in range(n)]
    for i,s in enumerate(S):
        for j in s: P[j].append(i)
    # input dataflow with identities
    orig={}
    for i,f in enumerate(I):
        for kind in ('rd','wr'):
            if f[kind]!=7: orig[(i,kind)]=f[kind]
    # waits by identity from the input: iterate
    waits=[set() for _ in range(n)]
    OUT=[set() for _ in range(n)]
    changed=True
    while changed:
        changed=False
        for i in range(n):
            st=set()
            for p in P[i]: st|=OUT[p]
            w={x for x in st if I[i]['wait']>>orig[x]&1}
            waits[i]=w
            o=(st-w)|{k for k in orig if k[0]==i}
            if o!=OUT[i]: OUT[i]=o; changed=True
    INo=dataflow(I,S,P,orig,waits)
    # groups: producer joins the group of pending producers with same sb
    group={}
    for k in sorted(orig, key=lambda k:(k[0],0 if k[1]=='rd' else 1)):
        mates=[x for x in INo[k[0]] if orig[x]==orig[k]]
        # also same-insn rd/wr same sb
        if mates: group[k]=group[mates[0]]
        else: group[k]=k
    prods=sorted(orig, key=lambda k:(k[0],0 if k[1]=='rd' else 1))
    if drop_first: prods=[k for k in prods if k[0]!=0]
    assign={}
    for k in prods:
        g=group[k]
        if g in assign and g!=k: assign[k]=assign[g]; continue
        IN=dataflow(I,S,P,assign,waits)
        busy={assign[x] for x in IN[k[0]]}|{assign[x] for x in assign if x[0]==k[0]}
        s=START.get(I[k[0]]['op'],0) if k[1]=='wr' else 0
        free=[x for x in range(6) if x not in busy]
        cand=[x for x in free if x>=s] or free or [0]
        assign[k]=cand[0]
        if g==k: pass
    # rebuild controls
    out=[]
    for i,f in enumerate(I):
        wr=assign.get((i,'wr'),7); rd=assign.get((i,'rd'),7)
        w=0
        for x in waits[i]:
            if x in assign: w|=1<<assign[x]
        out.append((wr,rd,w))
    return out
if __name__=='__main__':
    okn=Counter(); oki=Counter(); tot=Counter(); bad=[]
    for p in REF:
        if len(p['d'])!=len(p['n']): continue
        tot[p['arch']]+=1
        o=transform(p['I'],True); g=o==[ctl(f) for f in p['O']]
        o2=transform(p['I'],False); g2=o2==[ctl(f) for f in p['I']]
        okn[p['arch']]+=g; oki[p['arch']]+=g2
        if not g and p['arch']=='sm_100': bad.append(p['case']+' '+p['name'][-40:])
    print('nv',dict(okn)); print('in',dict(oki)); print(tot); print('\n'.join(bad))
