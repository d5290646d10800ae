# Research (docs/notes/refinalization.md): writes probe kernels into the current directory.
import random
random.seed(5)
for k in range(40):
    I=random.choice(['unsigned','unsigned long long'])
    nf=random.randint(6,12)
    fields=['f%d'%i for i in range(nf)]
    pre=random.sample(fields, random.randint(3,nf-2))
    post=[f for f in fields if f not in pre]
    src=['struct P { int *dst; const int *src; %s };'%' '.join('%s %s;'%(random.choice(['unsigned','unsigned long long','int']),f) for f in fields)]
    src.append('extern "C" __global__ void k(P p) {')
    src.append('  %s x = blockIdx.x * blockDim.x + threadIdx.x;'%I)
    src.append('  %s y = blockIdx.y * blockDim.y + threadIdx.y;'%I)
    src.append('  %s z = blockIdx.z;'%I)
    cond=' || '.join('%s >= p.%s'%(random.choice(['x','y','z']), f) for f in pre[:random.randint(1,3)])
    acc=' + '.join('p.%s * %s'%(f,random.choice(['x','y','z'])) for f in pre)
    src.append('  %s a = %s;'%(I,acc))
    src.append('  if (%s) return;'%cond)
    acc2=' + '.join('p.%s * %s'%(f,random.choice(['x','y','z','a'])) for f in post)
    src.append('  p.dst[a + %s] = p.src[a];'%acc2)
    src.append('}')
    open('s%02d.cu'%k,'w').write('\n'.join(src)+'\n')
