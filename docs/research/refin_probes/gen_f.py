# Research (docs/notes/refinalization.md, EXIT search): writes probe kernels into the current directory.
# Usage: python3 gen_f.py SEED COUNT
import random, sys
seed=int(sys.argv[1]); cnt=int(sys.argv[2])
random.seed(seed)
for k in range(cnt):
    T=random.choice(['unsigned','unsigned long','unsigned long long'])
    nf=random.randint(8,13)
    types=[random.choice(['unsigned','unsigned long','size_t','int']) for _ in range(nf)]
    fields=['f%d'%i for i in range(nf)]
    src=['struct P { char *dst; const char *src; %s };'%' '.join('%s %s;'%(t,f) for t,f in zip(types,fields))]
    src.append('extern "C" __global__ void k(P p) {')
    for v,c in zip('xyz','xyz'):
        if random.random()<0.8: src.append('  %s %s = blockIdx.%s * blockDim.%s + threadIdx.%s;'%(T,v,c,c,c))
        else: src.append('  %s %s = blockIdx.%s;'%(T,v,c))
    ncond=random.randint(2,3)
    cf=random.sample(fields, ncond)
    rest=[f for f in fields if f not in cf]
    pre=random.sample(rest, random.randint(0,2))
    post=[f for f in rest if f not in pre]
    conds=['xyz'[i]+' >= p.'+f for i,f in enumerate(cf)]
    if pre: src.append('  %s a = %s;'%(T,' + '.join('p.%s * %s'%(f,random.choice('xyz')) for f in pre)))
    else: src.append('  %s a = 0;'%T)
    src.append('  if (%s) return;'%' || '.join(conds))
    acc=' + '.join('p.%s * %s'%(f,random.choice(['x','y','z','a'])) for f in post)
    m=random.random()
    if m<0.4:
        src.append('  p.dst[a + %s] = p.src[a + x];'%acc)
    elif m<0.7:
        src.append('  char *d = p.dst + %s; const char *s = p.src + a;'%acc)
        src.append('  for (%s i = 0; i < p.%s; i++) d[i] = s[i];'%(T,random.choice(cf)))
    else:
        src.append('  for (%s i = 0; i < p.%s; i++) p.dst[a + i + %s] = p.src[a + i];'%(T, random.choice(post), acc))
    src.append('}')
    open('f%d_%02d.cu'%(seed,k),'w').write('\n'.join(src)+'\n')
