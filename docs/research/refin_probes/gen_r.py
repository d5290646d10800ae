# Research (docs/notes/refinalization.md): writes probe kernels into the current directory.
import random
random.seed(23)
types=['int','long long','unsigned','const int*','unsigned long long','const long long*']
for k in range(40):
    n=random.randint(7,16)
    ps=[random.choice(types) for _ in range(n)]
    src=['extern "C" __global__ void k(int *out, %s) {'%', '.join('%s p%d'%(t,i) for i,t in enumerate(ps))]
    src.append('  long long x = blockIdx.x * blockDim.x + threadIdx.x;')
    src.append('  long long y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;')
    g=random.random()
    if g<0.3: src.append('  if (x >= (long long)p%d) return;'%[i for i,t in enumerate(ps)][0] if '*' not in ps[0] else '  if (x >= p0[0]) return;')
    acc=['x','y','z']
    for i in random.sample(range(n),n):
        t=ps[i]; a=random.choice(acc)
        e='p%d[%s & 3]'%(i,a) if '*' in t else '(long long)p%d'%i
        acc.append('v%d'%i); src.append('  long long v%d = %s %s %s;'%(i,a,random.choice(['+','*','^','-']),e))
    src.append('  out[x + y * 7 + z] = (int)(%s);'%' + '.join(acc[3:]))
    src.append('}')
    open('r%02d.cu'%k,'w').write('\n'.join(src)+'\n')
