# Research (docs/notes/refinalization.md, EXIT search): writes probe kernels into the current directory.
# Usage: python3 gen_e.py SEED COUNT
import random, sys
seed=int(sys.argv[1]); cnt=int(sys.argv[2])
random.seed(seed)
for k in range(cnt):
    T=random.choice(['unsigned','unsigned long long','unsigned long'])
    nf=random.randint(8,14)
    types=[random.choice(['unsigned','unsigned long long','int','size_t']) for _ in range(nf)]
    fields=['f%d'%i for i in range(nf)]
    src=['struct P { char *dst; const char *src; %s };'%' '.join('%s %s;'%(t,f) for t,f in zip(types,fields))]
    src.append('extern "C" __global__ void k(P p) {')
    src.append('  %s x = blockIdx.x * blockDim.x + threadIdx.x;'%T)
    src.append('  %s y = blockIdx.y * blockDim.y + threadIdx.y;'%T)
    src.append('  %s z = blockIdx.z * blockDim.z + threadIdx.z;'%T)
    ncond=random.randint(1,3)
    cf=random.sample(fields, ncond)
    pre=random.sample([f for f in fields if f not in cf], random.randint(0,3))
    post=[f for f in fields if f not in cf and f not in pre]
    conds=['xyz'[i]+' >= p.'+f for i,f in enumerate(cf)]
    if pre:
        src.append('  %s a = %s;'%(T,' + '.join('p.%s * %s'%(f,random.choice('xyz')) for f in pre)))
    else:
        src.append('  %s a = 0;'%T)
    src.append('  if (%s) return;'%' || '.join(conds))
    acc=' + '.join('p.%s * %s'%(f,random.choice(['x','y','z','a'])) for f in post)
    if random.random()<0.5:
        src.append('  p.dst[a + %s] = p.src[a];'%acc)
    else:
        src.append('  for (%s i = 0; i < p.%s; i++) p.dst[a + i + %s] = p.src[a + i];'%(T, random.choice(post), acc))
    src.append('}')
    open('e%d_%02d.cu'%(seed,k),'w').write('\n'.join(src)+'\n')
