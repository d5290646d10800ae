# Research (docs/notes/refinalization.md, EXIT search): writes probe kernels into the current directory.
# Usage: python3 gen_h.py SEED COUNT
import random, sys
seed=int(sys.argv[1]); cnt=int(sys.argv[2])
random.seed(seed)
for k in range(cnt):
    T=random.choice(['unsigned long','unsigned long','unsigned'])
    nf=14
    fields=['f%d'%i for i in range(nf)]
    src=['struct P { char *dst; const char *src; %s };'%' '.join('%s %s;'%(random.choice(['unsigned long','unsigned','unsigned long']),f) for f in fields)]
    src.append('extern "C" __global__ void k(P p) {')
    src.append('  %s x = blockIdx.x + (%s)threadIdx.y * %s;'%(T,T,random.choice(['gridDim.x','blockDim.y'])))
    src.append('  %s y = threadIdx.x;'%T)
    src.append('  %s z = blockIdx.y;'%T)
    random.shuffle(fields)
    it=iter(fields)
    nt=random.randint(2,4)
    terms=[]
    for t in range(nt):
        v=random.choice('xyz')
        if random.random()<0.5: terms.append('%s * p.%s + p.%s >= p.%s'%(v,next(it),next(it),next(it)))
        else: terms.append('%s >= p.%s'%(v,next(it)))
    src.append('  if (%s) return;'%' || '.join(terms))
    rest=list(it)
    post=rest[:random.randint(1,3)]
    acc=' + '.join('p.%s * %s'%(f,random.choice('xyz')) for f in post)
    if random.random()<0.5:
        src.append('  p.dst[%s] = p.src[x];'%acc)
    else:
        src.append('  for (%s i = y; i < p.%s; i += blockDim.x) p.dst[%s + i] = p.src[x + i];'%(T,rest[-1],acc))
    src.append('}')
    open('h%d_%02d.cu'%(seed,k),'w').write('\n'.join(src)+'\n')
