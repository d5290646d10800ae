# Research (docs/notes/refinalization.md, EXIT search): writes probe kernels into the current directory.
# Usage: python3 gen_g.py SEED COUNT
import random, sys
seed=int(sys.argv[1]); cnt=int(sys.argv[2])
random.seed(seed)
for k in range(cnt):
    T=random.choice(['unsigned','unsigned long'])
    U=random.choice(['unsigned','unsigned long'])
    F=['dpitch','spitch','dslice','sslice','width','height','depth','nrows','off']
    random.shuffle(F)
    src=['struct P { char *dst; const char *src; %s };'%' '.join('%s %s;'%(random.choice([T,U,'unsigned']),f) for f in F)]
    src.append('extern "C" __global__ void k(P p) {')
    r=random.choice(['blockIdx.x + threadIdx.y * gridDim.x','blockIdx.x * blockDim.y + threadIdx.y','blockIdx.y * gridDim.x + blockIdx.x'])
    src.append('  %s row = %s;'%(T,r))
    if random.random()<0.5:
        src.append('  %s z = row / p.nrows, y = row %% p.nrows;'%T)
    else:
        src.append('  %s z = blockIdx.z, y = row;'%T)
    cond=random.choice(['z >= p.depth || y >= p.height','z >= p.depth','y >= p.height || z >= p.depth || threadIdx.x >= p.width'])
    src.append('  if (%s) return;'%cond)
    ex=random.choice(['',' + p.off'])
    if random.random()<0.6:
        src.append('  for (%s x = threadIdx.x; x < p.width; x += blockDim.x) p.dst[z * p.dslice + y * p.dpitch + x%s] = p.src[z * p.sslice + y * p.spitch + x];'%(T,ex))
    else:
        src.append('  %s x = threadIdx.x; p.dst[z * p.dslice + y * p.dpitch + x%s] = p.src[z * p.sslice + y * p.spitch + x];'%(T,ex))
    src.append('}')
    open('g%d_%02d.cu'%(seed,k),'w').write('\n'.join(src)+'\n')
