"""How the ONNX models run on this machine's few cores (shared by the corner finder and the classifier)."""
from __future__ import annotations

import os

# onnxruntime's worker threads, by default, keep spinning for a while after each run, waiting for
# the next one. A photo is two models taking turns (stage 1, then the classifier, each with a pool of
# its own) with Python work between them, and the layout reader after: on two cores the spinning
# threads of the idle pool take CPU from whatever runs next. Without spinning, detecting rendered 1080p
# Senior Wrangler photos (about 300 boxes for the classifier) took about a tenth less time, with the
# same boxes; in other games the difference was within the machine's noise (docs/benchmarks.md,
# "Session 47").
SPINNING = False


def session_options(threads: int | None = None):
    """Session options for a model on the CPU: ``threads`` intra-op threads (default: up to two),
    every graph optimisation, and no spinning between runs unless :data:`SPINNING`."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads or min(2, os.cpu_count() or 1)
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if not SPINNING:
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return so
