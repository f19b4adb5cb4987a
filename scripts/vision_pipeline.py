#!/usr/bin/env python3
"""The whole detector pipeline in one command: data -> training -> export -> evaluation.

    .venv/bin/python scripts/vision_pipeline.py --work data/vision --out models/

Steps (each prints progress and is skipped when its output already exists):
  1. install the Debian deck packages (apt-get, needs root) and render the decks
     with rsvg-convert to <work>/decks/<deck>/<label>.png
  2. generate synthetic scenes (YOLO format): train + val from the training
     decks, a held-out set from the held-out decks (vision.decks)
  3. train an ultralytics YOLO model from a config yaml (no pretrained weights,
     nothing downloaded), CPU
  4. export ONNX, copy weights to <out>/
  5. evaluate with the run-time detector (tiling, ONNX) on synthetic val,
     held-out decks and, if present, ../shared/real-dev/eyeplay; write
     <out>/metrics.json

Use --images/--epochs/--imgsz/--model to scale; --smoke for a tiny run (tests).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# No downloads at run time: ultralytics must not fetch fonts, weights or hub data.
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("ULTRALYTICS_OFFLINE", "1")

T0 = time.time()


def log(msg: str) -> None:
    print(f"[{time.time() - T0:7.1f}s] {msg}", flush=True)


# ------------------------------------------------------------------ step 1
def step_decks(work: Path, decks: list[str]) -> None:
    from vision import decks as D
    D.install_packages()
    files = D.deck_files()
    out = work / "decks"
    for i, name in enumerate(decks):
        if name not in files:
            raise SystemExit(f"deck {name} not found (is the Debian package installed?)")
        d = out / name
        if d.is_dir() and len(list(d.glob("*.png"))) >= 52:
            continue
        n = D.render_deck(name, files[name], out)
        log(f"rendered {name}: {n} cards ({i + 1}/{len(decks)})")
    log(f"decks ready in {out}")


# ------------------------------------------------------------------ step 2
_DECKS = None


def _init_worker(deck_dirs):
    global _DECKS
    import cv2
    cv2.setNumThreads(1)
    from vision.synth import Deck
    _DECKS = [Deck.load(d) for d in deck_dirs]


def _gen_one(args):
    import cv2
    import numpy as np
    from vision.synth import random_scene
    idx, seed, img_dir, lbl_dir, size = args
    rng = np.random.default_rng(seed)
    scene = random_scene(_DECKS, rng, size=(size, size))
    name = f"s{idx:06d}"
    cv2.imwrite(str(Path(img_dir) / f"{name}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (Path(lbl_dir) / f"{name}.txt").write_text("\n".join(scene.yolo_lines()) + "\n")
    return len(scene.labelled())


def generate(split_dir: Path, deck_dirs: list[str], n: int, seed: int, size: int, workers: int) -> None:
    img_dir, lbl_dir = split_dir / "images", split_dir / "labels"
    if img_dir.is_dir() and len(list(img_dir.glob("*.jpg"))) >= n:
        log(f"{split_dir.name}: {n} images already there")
        return
    img_dir.mkdir(parents=True, exist_ok=True)
    lbl_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(i, seed * 1_000_003 + i, str(img_dir), str(lbl_dir), size) for i in range(n)]
    t = time.time()
    boxes = 0
    # spawn, not fork: a forked child can deadlock on OpenCV's / torch's thread pools
    with get_context("spawn").Pool(workers, initializer=_init_worker, initargs=(deck_dirs,)) as pool:
        for k, nb in enumerate(pool.imap_unordered(_gen_one, jobs, chunksize=4), 1):
            boxes += nb
            if k % max(1, n // 10) == 0 or k == n:
                log(f"{split_dir.name}: {k}/{n} images, {boxes} boxes ({(time.time() - t) / k:.2f} s/img)")


def write_dataset_yaml(work: Path) -> Path:
    from vision.decks import LABELS
    y = work / "dataset.yaml"
    names = "\n".join(f"  {i}: '{l}'" for i, l in enumerate(LABELS))
    y.write_text(f"path: {work.resolve()}\ntrain: train/images\nval: val/images\nnames:\n{names}\n")
    return y


# ------------------------------------------------------------------ step 3
def train(work: Path, model_cfg: str, epochs: int, imgsz: int, batch: int, workers: int, name: str,
          hours: float | None = None):
    """Train from a config yaml (random init) or continue from our own ``.pt``.  ``hours`` bounds the wall time:
    ultralytics then fits the epochs (and the LR schedule) into that budget."""
    from ultralytics import YOLO
    import ultralytics.utils.torch_utils as tu
    # ultralytics trains on the CPU with cpu_count() - 1 threads: one thread on a 2-core machine.
    tu.NUM_THREADS = os.cpu_count() or 1
    # a config yaml: random init, no download; a .pt of our own: continue from its weights
    init = str(model_cfg) if str(model_cfg).endswith(".pt") else False
    model = YOLO(model_cfg)
    proj = (work / "runs").resolve()
    kw = dict(time=hours) if hours else {}
    model.train(data=str((work / "dataset.yaml").resolve()), epochs=epochs, imgsz=imgsz, batch=batch,
                device="cpu", workers=workers, project=str(proj), name=name, exist_ok=True, plots=False,
                amp=False, pretrained=init, val=False, verbose=True, seed=0, deterministic=False,
                optimizer="AdamW", lr0=0.002, cos_lr=False, warmup_epochs=0.5,
                fliplr=0.0, flipud=0.0, mosaic=0.7, mixup=0.0, degrees=0, hsv_h=0.02, scale=0.3,
                translate=0.1, close_mosaic=1, patience=1000, cache=False, **kw)
    w = proj / name / "weights"
    return w / "best.pt" if (w / "best.pt").is_file() else w / "last.pt"


def export_onnx(pt: Path, imgsz: int) -> Path:
    from ultralytics import YOLO
    m = YOLO(str(pt))
    out = m.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=False, opset=17)
    return Path(out)


# ------------------------------------------------------------------ step 5
def evaluate(model: Path, images: Path, labels: Path, names: Path, **kw) -> dict:
    from vision.evaluate import evaluate_dir
    return evaluate_dir(images, labels, names, model=model, **kw)


def main(argv=None) -> int:
    from vision.decks import HELDOUT_DECKS, LABELS, TRAIN_DECKS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default=str(ROOT / "data" / "vision"), help="data + runs folder (not committed)")
    ap.add_argument("--out", default=str(ROOT / "models"), help="where weights and metrics go")
    ap.add_argument("--name", default="cards_yolo11n")
    ap.add_argument("--model", default="yolo11n.yaml")
    ap.add_argument("--images", type=int, default=2400, help="training scenes")
    ap.add_argument("--val-images", type=int, default=150)
    ap.add_argument("--size", type=int, default=640, help="scene (tile) size in px")
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--epochs", type=int, default=30, help="upper bound; --hours usually decides")
    ap.add_argument("--hours", type=float, default=None, help="training wall-time budget (ultralytics time=)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--real-dev", default=str(ROOT.parent / "shared" / "real-dev" / "eyeplay"))
    ap.add_argument("--smoke", action="store_true",
                    help="tiny self-contained run (drawn decks, 8 images, 1 epoch, imgsz 160): proves the pipeline runs")
    ap.add_argument("--skip-eval", action="store_true")
    ap.add_argument("--export-only", action="store_true",
                    help="skip data and training: export <work>/runs/<name>/weights and evaluate")
    a = ap.parse_args(argv)
    work, out = Path(a.work), Path(a.out)
    train_decks, held = list(TRAIN_DECKS), list(HELDOUT_DECKS)
    if a.smoke:
        a.images, a.val_images, a.epochs, a.imgsz, a.size, a.batch = 8, 4, 1, 160, 320, 4
    work.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    log(f"pipeline: {a}")
    if a.smoke:
        # self-contained: drawn decks instead of the Debian artwork
        import cv2
        from vision.synth import synthetic_deck
        train_decks, held = ["synthetic-0"], ["synthetic-1"]
        for i, n in enumerate(train_decks + held):
            d = work / "decks" / n
            d.mkdir(parents=True, exist_ok=True)
            for label, im in synthetic_deck(160, seed=i).images.items():
                cv2.imwrite(str(d / f"{label}.png"), im)
    else:
        step_decks(work, train_decks + held)
    tdirs = [str(work / "decks" / d) for d in train_decks]
    hdirs = [str(work / "decks" / d) for d in held]
    generate(work / "train", tdirs, a.images, 1, a.size, a.workers)
    generate(work / "val", tdirs, a.val_images, 2, a.size, a.workers)
    generate(work / "heldout", hdirs, a.val_images, 3, a.size, a.workers)
    write_dataset_yaml(work)
    (work / "names.txt").write_text("\n".join(LABELS) + "\n")
    prev = {}
    if a.export_only:
        w = (work / "runs" / a.name / "weights")
        best = w / "best.pt" if (w / "best.pt").is_file() else w / "last.pt"
        if not best.is_file():
            raise SystemExit(f"--export-only: no weights in {w}")
        mj = out / f"{a.name}.metrics.json"
        prev = json.loads(mj.read_text()) if mj.is_file() else {}
        # keep the first run's numbers (fixed-size export, tiled inference) apart
        first = {k: prev.pop(k) for k in ("synthetic_val", "heldout_decks", "real_dev") if k in prev}
        if first:
            prev["first_export_tiled_eval"] = first
        train_s = prev.get("train_seconds", 0)
        log(f"export only, from {best}")
    else:
        log("training")
        t = time.time()
        best = train(work, a.model, a.epochs, a.imgsz, a.batch, a.workers, a.name, None if a.smoke else a.hours)
        train_s = time.time() - t
        log(f"trained in {train_s:.0f}s: {best}")
    onnx = export_onnx(best, a.imgsz)
    shutil.copy(best, out / f"{a.name}.pt")
    shutil.copy(onnx, out / f"{a.name}.onnx")
    log(f"exported {out / (a.name + '.onnx')}")
    metrics = dict(prev)
    if a.export_only:
        metrics["export_command"] = " ".join(sys.argv)
    else:
        metrics["command"] = " ".join(sys.argv)
    metrics.update({ "train_decks": train_decks, "heldout_deck_names": held,
               "images": a.images, "epochs": a.epochs, "hours": a.hours, "imgsz": a.imgsz, "model": a.model,
               "train_seconds": round(train_s)})
    if not a.skip_eval:
        onnx_path = out / f"{a.name}.onnx"
        names = work / "names.txt"
        from vision.detector import Detector
        metrics["detector_mode"] = Detector(onnx_path).mode
        for key, d in (("synthetic_val", work / "val"), ("heldout_decks", work / "heldout")):
            metrics[key] = evaluate(onnx_path, d / "images", d / "labels", names, tile=a.imgsz)
            log(f"{key}: {metrics[key]}")
        rd = Path(a.real_dev)
        if (rd / "images").is_dir() and not a.smoke:
            metrics["real_dev"] = evaluate(onnx_path, rd / "images", rd / "labels", rd / "names.txt", tile=a.imgsz)
            log(f"real_dev: {metrics['real_dev']}")
    if a.export_only:
        metrics["export_eval_seconds"] = round(time.time() - T0)
    else:
        metrics["wall_seconds"] = round(time.time() - T0)
    (out / f"{a.name}.metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    log(f"done in {time.time() - T0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
