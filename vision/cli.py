"""``patience detect`` and ``patience eval-detector``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .types import VisionError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("detect", help="find card corner indices in photos",
                       description="Detect every visible card corner index. Writes DIR/<stem>.txt with lines "
                                   "'label cx cy w h conf' (normalised to the image size).")
    p.add_argument("paths", nargs="+", metavar="PATH", help="image files (jpg/png)")
    p.add_argument("--save-txt", metavar="DIR", required=True, help="folder for <stem>.txt results")
    p.add_argument("--annotate", metavar="DIR", help="also write <stem>.jpg with the boxes drawn")
    p.add_argument("--conf", type=float, default=None, help="confidence threshold (default: the model's own, see models/cards_detector.json)")
    p.add_argument("--model", help="ONNX model (default models/cards_detector.onnx)")
    p.set_defaults(func=cmd_detect)

    e = sub.add_parser("eval-detector", help="score the detector on labelled photos",
                       description="Precision, recall, mAP50 (IoU 0.5) and card-identity recall against "
                                   "YOLO labels (class cx cy w h) with a names file.")
    e.add_argument("--images", required=True, metavar="DIR")
    e.add_argument("--labels", required=True, metavar="DIR")
    e.add_argument("--names", required=True, metavar="FILE", help="one class label per line (As Ks ... 2c)")
    e.add_argument("--conf", type=float, default=None, help="threshold for precision/recall (default: the model's own)")
    e.add_argument("--model", help="ONNX model (default models/cards_detector.onnx)")
    e.add_argument("--json", action="store_true", help="print the metrics as JSON")
    e.set_defaults(func=cmd_eval)


def cmd_detect(args) -> int:
    import cv2

    from .detector import Detector
    from .draw import annotate, yolo_text_lines
    from .imageio import load_image

    out = Path(args.save_txt)
    out.mkdir(parents=True, exist_ok=True)
    ann = Path(args.annotate) if args.annotate else None
    if ann:
        ann.mkdir(parents=True, exist_ok=True)
    det = Detector(args.model)
    for path in args.paths:
        img = load_image(path)
        h, w = img.shape[:2]
        found = det(img, conf=args.conf)
        stem = Path(path).stem
        lines = yolo_text_lines(found, w, h)
        (out / f"{stem}.txt").write_text("".join(ln + "\n" for ln in lines))
        if ann:
            cv2.imwrite(str(ann / f"{stem}.jpg"), annotate(img, found))
        print(f"{path}: {len(found)} corner indices")
    return 0


def cmd_eval(args) -> int:
    from .evaluate import evaluate_dir, summary_lines

    if not Path(args.labels).is_dir():
        raise VisionError(f"{args.labels}: not a folder")

    def progress(k, n):
        if k % 10 == 0 or k == n:
            print(f"  {k}/{n} images", file=sys.stderr, flush=True)

    m = evaluate_dir(args.images, args.labels, args.names, model=args.model, conf=args.conf, progress=progress)
    if args.json:
        print(json.dumps(m, indent=2))
        return 0
    print("\n".join(summary_lines(m)))
    return 0
