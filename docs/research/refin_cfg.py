from refin_lib import *
def is_bra(f): return (f['op']&0x1ff)==0x147
def pred(f): return (f['lo']>>12)&0xf
def bra_target(i,f):
    off=((f['lo'] if f['lo']<1<<63 else f['lo']-(1<<64))>>34)<<8 | ((f['lo']>>16)&0xff)
    return i+1+off*4//16
def succs(I):
    n=len(I); S=[]
    for i,f in enumerate(I):
        s=[]
        if is_bra(f):
            t=bra_target(i,f)
            if 0<=t<n: s.append(t)
            if not (f['op']==0x947 and pred(f)==7): s.append(i+1)
        elif f['op']==0x94d and pred(f)==7: pass
        else: s.append(i+1)
        S.append([x for x in s if x<n])
    return S
def pending(I, skip_first=False):
    """forward dataflow: state = frozenset of (sb, producer idx, kind). returns in-states after waits"""
    n=len(I); S=succs(I); P=[[] for _ in range(n)]
    for i,s in enumerate(S):
        for j in s: P[j].append(i)
    IN=[set() for _ in range(n)]; OUT=[set() for _ in range(n)]
    changed=True
    while changed:
        changed=False
        for i in range(n):
            st=set()
            for p in P[i]: st|=OUT[p]
            w=I[i]['wait']
            st={x for x in st if not (w>>x[0]&1)}
            IN[i]=st
            o=set(st)
            if not (skip_first and i==0):
                if I[i]['rd']!=7: o.add((I[i]['rd'],i,'rd'))
                if I[i]['wr']!=7: o.add((I[i]['wr'],i,'wr'))
            if o!=OUT[i]: OUT[i]=o; changed=True
    return IN,S
