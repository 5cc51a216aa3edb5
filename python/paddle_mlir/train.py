"""paddle_mlir.train: compiled train steps (docs/Training.md).

    import paddle_mlir.train
    trainer = paddle_mlir.train.compile("mlp/", loss_op="softmax_with_cross_entropy",
                                        label="label", optimizer="sgd", lr=0.1,
                                        input_shapes={"x": [32, 64]})
    for x, y in batches:
        loss = trainer.step(x, y)          # forward, backward and update, natively
    weights = trainer.parameters()         # {name: array}, the current values

The artifact's @main is forward + backward + optimizer in one native
function; the trained weights live in the runtime instance (never copied
through Python between steps).
"""

import json
import os

import numpy as np

from . import CompiledModel, compile as _compile

__all__ = ["compile", "TrainStep"]


class TrainStep:
    """A loaded train-step artifact: `step(*batch)` runs one step and returns
    the loss; `parameters()` reads the trained weights."""

    def __init__(self, artifact_dir, _owned_tmpdir=None, threads=None):
        self._compiled = CompiledModel(artifact_dir, _owned_tmpdir=_owned_tmpdir, threads=threads)
        with open(os.path.join(self._compiled.artifact_dir, "manifest.json")) as f:
            manifest = json.load(f)
        self.trainable = [w["name"] for w in manifest["weights"]
                          if w.get("trainable") and not w.get("optimizer_state")]
        # Velocities, moments, beta powers and the step counter.
        self.optimizer_state = [w["name"] for w in manifest["weights"] if w.get("optimizer_state")]
        if not self.trainable:
            raise ValueError("%s is not a train-step artifact (no trainable weights)" % artifact_dir)
        self._outputs = [o["name"] for o in manifest["outputs"]]
        self._updates = [bool(o.get("updates")) for o in manifest["outputs"]]
        self._fetch = [i for i, upd in enumerate(self._updates) if not upd]
        self.last_gradients = {}
        self._instance = None

    @property
    def _inst(self):
        # One instance (the trained weights live in it), made at first use,
        # so that a train step compiled for a device this machine lacks
        # (target="cuda" on a build machine) is still written and returned;
        # using it then says why it cannot run here.
        if self._instance is None:
            self._instance = self._compiled._instance()
        return self._instance

    @property
    def inputs(self):
        return self._compiled.inputs

    @property
    def artifact_dir(self):
        return self._compiled.artifact_dir

    def step(self, *arrays, **named):
        """Runs forward, backward and the update on one batch; returns the
        loss as a float. With keep_gradients, last_gradients holds
        {parameter: gradient} of this step."""
        # Updated weights stay in the instance: only the loss (and the
        # gradients) are copied out.
        results = self._inst.run(self._compiled._bind(arrays, named), fetch=self._fetch)
        self.last_gradients = {name[:-len("@GRAD")]: r for name, r, upd in
                               zip(self._outputs, results, self._updates)
                               if not upd and name.endswith("@GRAD")}
        return float(np.asarray(results[0]).reshape(-1)[0])

    def parameters(self):
        """{name: array}: the current values of the trained weights (and
        batch_norm's running statistics); optimizer state is not included."""
        return {name: self._inst.get_weight(name) for name in self.trainable}

    def optimizer_state_values(self):
        """{name: array}: the optimizer's state (velocities `<p>_velocity_0`,
        moments `<p>_moment1_0` / `<p>_moment2_0`, `beta1_pow_acc_0`,
        `beta2_pow_acc_0`, the step counter `@LR_DECAY_COUNTER@`)."""
        return {name: self._inst.get_weight(name) for name in self.optimizer_state}

    def set_parameters(self, values):
        """Overwrites trained weights from {name: array}."""
        for name, value in values.items():
            self._inst.set_weight(name, np.require(value, requirements="C"))

    @property
    def steps(self):
        """Train steps run so far (restored by load_checkpoint)."""
        return self._inst.steps

    def save(self, directory):
        """Writes the trained model as a Paddle inference model:
        `directory`/model.pdmodel (the forward program) and model.pdiparams
        (the current parameters), which paddle_mlir.compile, paddle-run and
        Paddle load. Returns `directory`."""
        self._inst.save_params(str(directory))
        return str(directory)

    def gather_stage_parameters(self):
        """Pipeline training under mpirun (each rank keeps its stage's
        parameters current): copies every stage's parameters and optimizer
        state to rank 0, whose parameters() and save() then hold the whole
        trained model. Every rank calls it at the same point; for other
        train steps it does nothing."""
        self._inst.gather_stage_params()

    def save_artifact(self, directory):
        """Copies the train-step artifact itself to `directory`."""
        return self._compiled.save(directory)

    def save_checkpoint(self, path):
        """Writes every trained weight, the optimizer state and the step count
        to `path` (atomically)."""
        self._inst.save_checkpoint(str(path))

    def load_checkpoint(self, path):
        """Restores a checkpoint of this train step; training then continues
        bit-exactly as if it had not stopped."""
        self._inst.load_checkpoint(str(path))


_OPTIMIZER_KEYWORDS = {"momentum": "momentum", "nesterov": "nesterov", "beta1": "beta1", "beta2": "beta2",
                       "epsilon": "epsilon", "weight_decay": "weight-decay", "clip_norm": "clip-norm",
                       "schedule": "schedule", "step_size": "step-size", "gamma": "gamma",
                       "total_steps": "total-steps", "min_lr": "min-lr", "warmup_steps": "warmup-steps"}


def compile(model, params=None, *, loss=None, loss_op=None, label="label", optimizer="sgd", lr=0.01,
            input_shapes=None, keep_gradients=False, output_dir=None, name="train_step",
            threads=None, momentum=None, nesterov=None, beta1=None, beta2=None, epsilon=None,
            weight_decay=None, clip_norm=None, schedule=None, step_size=None, gamma=None,
            total_steps=None, min_lr=None, warmup_steps=None, bucket_mb=None, overlap=False,
            reduce_strategy=None, sync_batch_norm=False, **options):
    """Compiles a train step of `model` (a Paddle model path or pd MLIR text,
    as paddle_mlir.compile takes).

    loss: the output (or Paddle variable) that already holds a scalar loss;
    or loss_op="softmax_with_cross_entropy": appended to the model's first
    output, with a new int64 input `label` of the output's shape with its
    last dim 1, averaged over the batch. optimizer: "sgd", "momentum"
    (momentum=0.9, nesterov=False), "adam" or "adamw" (beta1=0.9,
    beta2=0.999, epsilon=1e-8); lr: the (peak) learning rate.
    weight_decay: L2 decay added to the gradients (adamw: decoupled decay,
    default 0.01); clip_norm: clip the gradients by their global norm.
    schedule: "constant", "step" (step_size, gamma=0.1) or "cosine"
    (total_steps, min_lr=0), after warmup_steps of linear warmup from 0.
    Shapes must be static (input_shapes fixes dynamic dims).
    keep_gradients: the step also returns each parameter's gradient
    (TrainStep.last_gradients). partition="data", devices=N: data-parallel
    training for a job of N ranks under mpirun (each rank steps on its
    1/N of the batch, the gradients are averaged in buckets of bucket_mb
    MiB, default 32; overlap=True starts each bucket's allreduce as soon as
    its last gradient exists so it overlaps the rest of backward;
    reduce_strategy="reduce" reduce-scatters the buckets so each rank
    updates, and keeps optimizer state for, 1/N of the parameters, which
    are then gathered; sync_batch_norm=True computes batch_norm statistics
    over the global batch; docs/MultiDevice.md). Other keywords go to
    paddle_mlir.compile.
    """
    if (loss is None) == (loss_op is None):
        raise ValueError("give exactly one of loss= (a scalar loss output) and loss_op=")
    extra = {"train": "true", "optimizer": optimizer, "lr": repr(float(lr)),
             "keep-gradients": "true" if keep_gradients else "false", "label": label}
    given = {"momentum": momentum, "nesterov": nesterov, "beta1": beta1, "beta2": beta2, "epsilon": epsilon,
             "weight_decay": weight_decay, "clip_norm": clip_norm, "schedule": schedule, "step_size": step_size,
             "gamma": gamma, "total_steps": total_steps, "min_lr": min_lr, "warmup_steps": warmup_steps}
    for key, value in given.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, float):
            value = repr(value)
        extra[_OPTIMIZER_KEYWORDS[key]] = str(value)
    if bucket_mb is not None:
        extra["bucket-mb"] = repr(float(bucket_mb))
    if overlap:
        extra["overlap-buckets"] = "true"
    if reduce_strategy is not None:
        extra["reduce-strategy"] = str(reduce_strategy)
    if sync_batch_norm:
        extra["sync-batch-norm"] = "true"
    if loss is not None:
        extra["loss"] = loss
    else:
        extra["loss-op"] = loss_op
    extra.update(options.pop("_extra_options", None) or {})
    compiled = _compile(model, params, input_shapes=input_shapes, output_dir=output_dir, name=name,
                        _extra_options=extra, **options)
    # Hand the (possibly temporary) directory over to the train step.
    tmp, compiled._tmp = compiled._tmp, None
    return TrainStep(compiled.artifact_dir, _owned_tmpdir=tmp, threads=threads)
