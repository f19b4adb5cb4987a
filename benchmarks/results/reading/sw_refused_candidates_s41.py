import sys
sys.path.insert(0,'/work/main'); sys.path.insert(0,'/work/main/benchmarks')
import reading_cache as RC, reading_bench as RB, numpy as np
from pathlib import Path
import vision.reading as R
from advisor.engine import get_game
gid='senior-wrangler'
decks,_=RB.decks_and_detector(type('A',(),{'decks':None,'sightings':'oracle'})())
for seed in map(int, sys.argv[1:]):
    deck=decks[(seed-1000)%len(decks)]
    truth, scene, cam, nrng = RB.render_layout(gid, seed, deck, 25, rotation=15.0)
    k=RC._load(Path(f'data/reading-cache/{gid}/{seed}.pkl'))
    game=get_game(gid); layout=game.layout({}); tmpl=R._template(game,{})
    pl=R.places(layout,tmpl)
    heads=np.array([p.first for p in pl],float)
    def proj(H,pts):
        ph=np.c_[pts,np.ones(len(pts))]@H.T; return ph[:,:2]/ph[:,2:3]
    tp=proj(cam.H,heads)
    s=R.one_per_place(k['sights']); scale=R.estimate_scale(s); first=R.first_grouping(s,scale)
    cands=R.register(first,layout,scale,tmpl)
    q0=np.array([c.anchor for c in first])
    print(seed,'cands',len(cands),'scale',round(scale,1))
    errs=[]
    for i,(f,H) in enumerate(cands):
        e=np.median(np.hypot(*(proj(H,heads)-tp).T))
        errs.append((e,i,f,R._fit_share(H,q0,pl,layout)))
    for e,i,f,sh in sorted(errs)[:5]: print('  rank',i,'fit %.3f share %.2f head err px %.1f'%(f,sh,e))
    print('  true: fit %.3f share %.2f snug %.2f'%(R._fit_score(cam.H,q0,pl), R._fit_share(cam.H,q0,pl,layout), R._snug_share(cam.H,q0,pl,layout)))
    for e,i,f,sh in sorted(errs,key=lambda x:x[1])[:3]: print('  top',i,'fit %.3f share %.2f err %.1f'%(f,sh,e))
