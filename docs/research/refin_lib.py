# Research (docs/notes/refinalization.md): needs /tmp/sb/pairs.pkl from refin_extract.py,
# which reads /tmp/sb/jobs/<case>/<arch>/{d,n}.cubin (dlink output, nvlink expected.cubin).
import pickle,sys
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refin_extract import fields
P=pickle.load(open('/tmp/sb/pairs.pkl','rb'))
def insns(b): return [fields(b[i:i+16]) for i in range(0,len(b),16)]
def is_r1_ldc(f): return f['op']==0xb82 and ((f['lo']>>16)&0xff)==1 and f['wr']!=7
def ctl(f): return (f['wr'],f['rd'],f['wait'])
REF=[p for p in P if p['d']!=p['n']]
for p in P:
    p['I']=insns(p['d']); p['O']=insns(p['n'])
