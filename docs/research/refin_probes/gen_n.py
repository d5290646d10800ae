# Research (docs/notes/refinalization.md, EXIT search): writes probe kernels into the current directory.
# Usage: python3 gen_n.py SEED COUNT
import random, sys
seed=int(sys.argv[1]); cnt=int(sys.argv[2])
random.seed(seed)
for k in range(cnt):
    fields=['f%d'%i for i in range(12)]
    tys={f:random.choice(['unsigned long','unsigned']) for f in fields}
    src=['struct P { char *dst; const char *src; %s };'%' '.join('%s %s;'%(tys[f],f) for f in fields)]
    src.append('extern "C" __global__ void k(P p) {')
    src.append('  unsigned long x = blockIdx.x + (unsigned long)threadIdx.y * gridDim.x;')
    F=fields[:]; random.shuffle(F); it=iter(F)
    src.append('  unsigned long y = x * p.%s + p.%s;'%(next(it),next(it)))
    src.append('  unsigned long z = x * p.%s;'%next(it))
    terms=['y >= p.%s * p.%s'%(next(it),next(it)),'z >= p.%s'%next(it),'threadIdx.x >= p.%s'%next(it)]
    random.shuffle(terms); terms=terms[:random.randint(2,3)]
    src.append('  if (%s) return;'%' || '.join(terms))
    rest=list(it)
    a,b,c=rest[0],rest[1],rest[2]
    form=random.randint(0,3)
    if form==0: src.append('  p.dst[y * p.%s + z * p.%s + threadIdx.x] = p.src[y * p.%s + z];'%(a,b,c))
    elif form==1: src.append('  p.dst[y * p.%s + threadIdx.x] = p.src[z * p.%s + p.%s];'%(a,b,c))
    elif form==2: src.append('  for (unsigned long i = threadIdx.x; i < p.%s; i += blockDim.x) p.dst[y * p.%s + i] = p.src[z * p.%s + i];'%(a,b,c))
    else: src.append('  p.dst[(y + p.%s) * p.%s + threadIdx.x] = p.src[z * p.%s];'%(a,b,c))
    src.append('}')
    open('n%d_%02d.cu'%(seed,k),'w').write('\n'.join(src)+'\n')
