# Research (docs/notes/refinalization.md): writes probe kernels into the current directory.
import random
random.seed(7)
types=['int','long long','unsigned','const int*','float']
out=[]
for k in range(36):
    n=random.randint(6,18)
    ps=[random.choice(types) for _ in range(n)]
    guard=random.choice([0,1,2])
    src=['extern "C" __global__ void k(int *out, %s) {'%', '.join('%s p%d'%(t,i) for i,t in enumerate(ps))]
    src.append('  long long x = blockIdx.x * blockDim.x + threadIdx.x;')
    src.append('  long long y = blockIdx.y, z = blockIdx.z;')
    if guard==1: src.append('  if (x >= p0%s) return;'%('' if 'int' in ps[0] or 'long' in ps[0] or ps[0]=='unsigned' else '[0]' if '*' in ps[0] else ''))
    if guard==2: src.append('  if (y > 3) return;')
    order=list(range(n)); random.shuffle(order)
    acc=['x','y','z']
    for i in order:
        t=ps[i]; a=random.choice(acc)
        if '*' in t: e='p%d[%s & 7]'%(i,a)
        elif t=='float': e='(long long)(p%d * 2.0f)'%i
        else: e='(long long)p%d'%i
        op=random.choice(['+','*','^'])
        acc.append('v%d'%i); src.append('  long long v%d = %s %s %s;'%(i,a,op,e))
        if random.random()<0.2: src.append('  if (v%d == 17) return;'%i)
    src.append('  out[x] = (int)(%s);'%' + '.join(acc[-4:]))
    src.append('}')
    open('q%02d.cu'%k,'w').write('\n'.join(src)+'\n')
