# Research (docs/notes/refinalization.md): writes probe kernels into the current directory.
import random
random.seed(11)
for k in range(30):
    T=random.choice(['unsigned','unsigned long long','int','float'])
    I=random.choice(['unsigned','unsigned long long'])
    nf=random.randint(0,4)
    extra=''.join('  %s e%d;\n'%(random.choice(['unsigned','unsigned long long']),i) for i in range(nf))
    guard=random.choice(['if (x >= p.w) return;','if (x >= p.w || y >= p.h) return;','if (x < p.w) {','', 'if (z >= p.d) return;'])
    body=[]
    body.append('  %s di = (z + p.z0) * p.ph + (y + p.y0);'%I)
    body.append('  %s si = (z + p.sz0) * p.sph + (y + p.sy0);'%I)
    ex=' + '.join(['p.e%d'%i for i in range(nf)]) or '0'
    body.append('  T *d = (T *)((char *)p.dst + di * p.dpitch) + x + p.x0 + (%s);'%ex)
    body.append('  const T *s = (const T *)((const char *)p.src + si * p.spitch) + x + p.sx0;')
    body.append('  *d = *s;' if random.random()<0.7 else '  *d = (T)%s;'%random.choice(['p.val','p.val + x']))
    src='''typedef %s T;
struct P {
  T *dst; const T *src; T val;
  %s dpitch, spitch, ph, sph, w, h, d;
  %s x0, y0, z0, sx0, sy0, sz0;
%s};
extern "C" __global__ void k(P p) {
  %s x = blockIdx.x * blockDim.x + threadIdx.x;
  %s y = blockIdx.y * blockDim.y + threadIdx.y;
  %s z = blockIdx.z;
  %s
%s
%s
}
'''%(T,I,I,extra,I,I,I,guard,'\n'.join(body),'  }' if guard.endswith('{') else '')
    open('m%02d.cu'%k,'w').write(src)
