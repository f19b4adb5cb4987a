import sys
sys.path.insert(0,'/work/main'); sys.path.insert(0,'/work/main/benchmarks')
import reading_cache as RC, reading_bench as RB, numpy as np
from pathlib import Path
import vision.reading as R
from reading_errors import kinds_of_errors
from advisor.engine import State
gid='senior-wrangler'
decks,_=RB.decks_and_detector(type('A',(),{'decks':None,'sightings':'oracle'})())
for seed in map(int, sys.argv[1:]):
    deck=decks[(seed-1000)%len(decks)]
    truth, scene, cam, nrng = RB.render_layout(gid, seed, deck, 25, rotation=15.0)
    k=RC._load(Path(f'data/reading-cache/{gid}/{seed}.pkl')); img=k['image']
    assert k['deck']==deck.name
    orig=R.register
    def reg(*a, **kw):
        c=orig(*a, **kw); return [(1.0, cam.H.copy())]+list(c)
    R.register=reg
    r=R.read_sightings(k['sights'],gid,image_size=(img.shape[1],img.shape[0]),weak=k['weak'],image=img)
    R.register=orig
    print(seed, deck.name, 'state' if r.state else r.message[:200])
    if r.state: print(kinds_of_errors(State.from_json(k['truth'],check=False), r.state, r.doubts))
