import sys, statistics
sys.path.insert(0,'/work/main')
from advisor.cli import play_deal
from advisor.search import Budget
from advisor.engine import get_game
from advisor.cards import Card
import advisor.tips.kings as K
from advisor.kings_memory import sides, TOP
LEFT, RIGHT, PILE, FAN = "left-kings", "right-kings", "pile", "fan"
W_TOP_DEPTH=float(sys.argv[4]) if len(sys.argv)>4 else 1.0
W_LATER=float(sys.argv[5]) if len(sys.argv)>5 else 2.0
W_UNSEEN=float(sys.argv[6]) if len(sys.argv)>6 else 3.0
orig=K.fan_order
def where_costs(p):
    k=p.k; mem=k.state; cost={}
    for c in (s.card for s in mem.areas[FAN][0:0]): pass
    for f in mem.areas[FAN]:
        for s in f:
            if s.card is not None: cost[s.card.face]=min(cost.get(s.card.face,9e9),1.0)
    for i,pile in enumerate(mem.areas[PILE]):
        n=i+1; L=len(pile)
        for j,s in enumerate(pile):
            if s.card is None: continue
            depth=L-1-j
            if depth==0: c=1.0
            elif k.priority[i]==TOP: c=1.0+W_TOP_DEPTH*depth
            else: c=W_LATER+0.2*depth
            cost[s.card.face]=min(cost.get(s.card.face,9e9),c)
    return cost
def fo(p):
    order, why = orig(p)
    k=p.k; fan=[f[0].card for f in k.state.areas[FAN]]
    cost=where_costs(p)
    def deff(c):
        sd=sides(c,k.left,k.right); best=9e9
        for side,dist in sd.items():
            step=-1 if side==LEFT else 1
            need=(k.left if side==LEFT else k.right)[c.suit]
            tot=0.0
            for r in range(need, c.rank, step):
                tot+=cost.get((r,c.suit),W_UNSEEN)
            best=min(best,tot)
        return best
    keys={}
    for i in order: keys[i]=order.index(i)
    # keep the dead/unknown groups as orig does (they sit at the bottom); re-sort the live ones
    live=[i for i in order if fan[i] is not None and not why[i].startswith('dead')]
    rest=[i for i in order if i not in live]
    live.sort(key=lambda i:(-deff(fan[i]), i))
    return rest+live, why
K.fan_order=fo
g=get_game('kings'); b=Budget(seconds=0.005)
n=int(sys.argv[2]); start=int(sys.argv[3])
wins=0; comp=[]
for s in range(start,start+n):
    won,_,m,_=play_deal(g,s,'advice',b,500); wins+=won; comp.append(m)
print(sys.argv[1:],'wins',wins,'completion %.4f'%statistics.mean(comp))
