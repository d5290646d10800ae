# Research (docs/notes/refinalization.md, EXIT search): writes probe kernels into the current directory.
# Usage: python3 gen_l.py SEED COUNT
import random, sys
seed=int(sys.argv[1]); cnt=int(sys.argv[2])
random.seed(seed)
for k in range(cnt):
    fields=['f%d'%i for i in range(12)]
    tys={f:random.choice(['unsigned long','unsigned long','unsigned']) for f in fields}
    src=['struct P { char *dst; const char *src; %s };'%' '.join('%s %s;'%(tys[f],f) for f in fields)]
    src.append('extern "C" __global__ void k(P p) {')
    F=fields[:]; random.shuffle(F); it=iter(F)
    s0=random.choice(['blockIdx.x + (unsigned long)threadIdx.y * gridDim.x','(unsigned long)blockIdx.x * blockDim.y + threadIdx.y','blockIdx.x'])
    st=random.choice(['gridDim.x','(unsigned long)gridDim.x * blockDim.y','p.%s'%next(it)])
    a,b,c,d,e,g=[next(it) for _ in range(6)]
    form=random.randint(0,2)
    if form==0:
        src.append('  for (unsigned long r = %s; r < p.%s * p.%s; r += %s) {'%(s0,a,b,st))
        src.append('    unsigned long z = r / p.%s, y = r %% p.%s;'%(a,a))
        src.append('    for (unsigned long x = threadIdx.x; x < p.%s; x += blockDim.x) p.dst[z * p.%s + y * p.%s + x] = p.src[z * p.%s + y * p.%s + x];'%(c,d,e,g,next(it)))
    elif form==1:
        src.append('  unsigned long r0 = %s;'%s0)
        src.append('  if (r0 >= p.%s * p.%s || threadIdx.x >= p.%s) return;'%(a,b,c))
        src.append('  for (unsigned long r = r0; r < p.%s * p.%s; r += %s) {'%(a,b,st))
        src.append('    unsigned long z = r / p.%s, y = r - z * p.%s;'%(a,a))
        src.append('    for (unsigned long x = threadIdx.x; x < p.%s; x += blockDim.x) p.dst[z * p.%s + y * p.%s + x] = p.src[z * p.%s + y * p.%s + x];'%(c,d,e,g,next(it)))
    else:
        src.append('  for (unsigned long r = %s; r < p.%s; r += %s) {'%(s0,a,st))
        src.append('    for (unsigned long x = threadIdx.x; x < p.%s; x += blockDim.x) p.dst[r * p.%s + x * p.%s] = p.src[r * p.%s + x];'%(c,d,e,g))
    src.append('  }')
    src.append('}')
    open('l%d_%02d.cu'%(seed,k),'w').write('\n'.join(src)+'\n')
