"""Session 41: the first N kept 1080p photos of each game read as every game, and 48 random scatters, with the
second vote before refusing off (0) or on (1): how many readings give a state. Needs data/reading-cache
(reading_cache.py build --layouts 40).   python benchmarks/results/reading/refusal_kept_s41.py 1 10
Session 42: a third argument names the reader's switch to turn off or on instead (REGROUP_LOOK_ALIKES)."""
import sys, pickle
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'benchmarks'))
import vision.reading as R
import reading_bench as RB
v=int(sys.argv[1]); n=int(sys.argv[2]); switch=sys.argv[3] if len(sys.argv)>3 else 'REGROUP_RETRY'; setattr(R,switch,v)
games=['senior-wrangler','seven-and-six','captain-spaulding','aunty-allis','uncle-remus','pendulum','kings','interregnum','poker-patience']
photos=[]
for g in games:
    for p in sorted((ROOT / 'data' / 'reading-cache' / g).glob('*.pkl'), key=lambda p:int(p.stem))[:n]:
        k=pickle.loads(p.read_bytes()); photos.append((g,k['sights'],k['weak']))
photos+=[('scatter',RB.random_scatter(1000+i),[]) for i in range(48)]
other=0; own=0; scat=0; tot_other=0
for a in games:
    row={}
    for g,s,w in photos:
        r=R.read_sightings(s,a,image_size=(1920,1080),weak=w)
        ok=r.state is not None
        if g=='scatter': scat+=ok
        elif g==a: own+=ok
        else: other+=ok; tot_other+=1
        row[g]=row.get(g,0)+ok
    print(a,row,flush=True)
print(switch,v,'own',own,'other',other,'/',tot_other,'scatters',scat)
