/* pdrt.h - the paddle-mlir runtime: load a compiled artifact and run it.
 *
 * Plain C ABI, no MLIR or LLVM types. A model (pdrt_model) is loaded once
 * from an artifact directory (manifest.json, lib<name>.so, <name>.weights)
 * and is read-only afterwards; each thread runs its own instance
 * (pdrt_instance). Every call returns a status; on failure
 * pdrt_last_error() gives one line saying what, where and why (per thread).
 */
#ifndef PADDLE_MLIR_PDRT_H
#define PADDLE_MLIR_PDRT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  PDRT_OK = 0,
  PDRT_ERR_IO = 1,               /* a file is missing or unreadable */
  PDRT_ERR_FORMAT = 2,           /* a file is malformed or inconsistent */
  PDRT_ERR_INVALID_ARGUMENT = 3, /* wrong name, dtype, rank or shape */
  PDRT_ERR_STATE = 4,            /* e.g. running with an input not set */
  PDRT_ERR_INTERNAL = 5,
  PDRT_ERR_DEVICE = 6 /* no usable device: no driver or device, wrong architecture, a device
                         failure (out of memory, a kernel fault) */
} pdrt_status;

typedef enum {
  PDRT_FLOAT32 = 0,
  PDRT_FLOAT64,
  PDRT_FLOAT16,
  PDRT_BFLOAT16,
  PDRT_INT8,
  PDRT_UINT8,
  PDRT_INT16,
  PDRT_INT32,
  PDRT_INT64,
  PDRT_BOOL,
  PDRT_UINT32,
  PDRT_UINT64,
  PDRT_UINT16,
  PDRT_DTYPE_INVALID
} pdrt_dtype;

typedef struct pdrt_model pdrt_model;
typedef struct pdrt_instance pdrt_instance;

/* The message of the last failed call on this thread ("" if none). */
const char *pdrt_last_error(void);
const char *pdrt_dtype_name(pdrt_dtype dtype);
/* Parses "float32", "int64", ...; PDRT_DTYPE_INVALID if unknown. */
pdrt_dtype pdrt_dtype_from_name(const char *name);
int64_t pdrt_dtype_size(pdrt_dtype dtype);

pdrt_status pdrt_model_load(const char *artifact_dir, pdrt_model **model);
void pdrt_model_free(pdrt_model *model);
/* A program with collective ops (docs/MultiDevice.md) runs on every rank of
 * a job: this process's rank and the job's rank count, from the launcher
 * (mpirun) through the communicator, which this starts (MPI). 0 and 1 for
 * a model without collectives, or a process not launched by mpirun.
 * PDRT_ERR_STATE when the communicator cannot start (e.g. no MPI backend). */
pdrt_status pdrt_model_ranks(const pdrt_model *model, int64_t *rank, int64_t *size);
const char *pdrt_model_name(const pdrt_model *model);

int64_t pdrt_model_num_inputs(const pdrt_model *model);
int64_t pdrt_model_num_outputs(const pdrt_model *model);
/* Interface of input/output i: name, dtype, rank and shape (-1: dynamic). */
const char *pdrt_model_input_name(const pdrt_model *model, int64_t i);
pdrt_dtype pdrt_model_input_dtype(const pdrt_model *model, int64_t i);
int64_t pdrt_model_input_rank(const pdrt_model *model, int64_t i);
const int64_t *pdrt_model_input_shape(const pdrt_model *model, int64_t i);
const char *pdrt_model_output_name(const pdrt_model *model, int64_t i);
pdrt_dtype pdrt_model_output_dtype(const pdrt_model *model, int64_t i);
int64_t pdrt_model_output_rank(const pdrt_model *model, int64_t i);
const int64_t *pdrt_model_output_shape(const pdrt_model *model, int64_t i);

pdrt_status pdrt_instance_create(const pdrt_model *model, pdrt_instance **instance);
/* An instance on `device`: "cpu" for a cpu artifact, "cuda:N" (or "cuda",
 * device 0) for a cuda artifact, whose weights are uploaded there and whose
 * inputs and outputs are copied to and from it by pdrt_run.
 * pdrt_instance_create is this with the artifact's default device (cpu, or
 * cuda:0). PDRT_ERR_DEVICE when the device cannot be used (no driver, no
 * such device, kernels built for another architecture). */
pdrt_status pdrt_instance_create_on(const pdrt_model *model, const char *device,
                                    pdrt_instance **instance);
/* The target the artifact was built for: "cpu" or "cuda". */
const char *pdrt_model_target(const pdrt_model *model);
void pdrt_instance_free(pdrt_instance *instance);

/* Binds input `name` to row-major `data` (borrowed until the next run). The
 * dtype, rank and static dims must match the model. */
pdrt_status pdrt_set_input(pdrt_instance *instance, const char *name, pdrt_dtype dtype,
                           const int64_t *shape, int64_t rank, const void *data);
/* Threads. A run uses at most the instance's thread count: by default the
 * CPUs this process may use (affinity mask, lowered to the cgroup CPU
 * quota), or PDRT_NUM_THREADS, or else OMP_NUM_THREADS. Below that the
 * runtime leaves out cores that other processes keep busy and shares the
 * CPUs between instances of the process that run at the same time, so
 * threads never wait on a core they do not get (PDRT_ADAPTIVE_THREADS=0:
 * always the full count). 0 restores the default. */
pdrt_status pdrt_instance_set_num_threads(pdrt_instance *instance, int64_t threads);
/* Threads the instance's last run used (0 before its first run). */
int64_t pdrt_instance_num_threads(const pdrt_instance *instance);
/* The default thread count and, in *source if not null, what set it:
 * "PDRT_NUM_THREADS", "OMP_NUM_THREADS", "cgroup" or "affinity". */
int64_t pdrt_default_num_threads(const char **source);

/* Runs the model on the bound inputs. */
pdrt_status pdrt_run(pdrt_instance *instance);
/* Output i of the last run: row-major data, owned by the instance and valid
 * until the next run or free. */
pdrt_status pdrt_get_output(const pdrt_instance *instance, int64_t i, const void **data,
                            const int64_t **shape, int64_t *rank, pdrt_dtype *dtype);

/* One step of a train-step artifact (paddle-compile --train,
 * docs/Training.md) on the bound batch: forward, backward and the update of
 * the instance's parameters and optimizer state; *loss receives the batch's
 * loss. Labels are checked against the model's classes when bound
 * (pdrt_set_input). PDRT_ERR_STATE for a model that is not a train step.
 * The update is written in place: after a failure inside a kernel the
 * parameters may be partly updated (reload a checkpoint). */
pdrt_status pdrt_train_step(pdrt_instance *instance, double *loss);

/* Train steps run by the instance so far (restored by a checkpoint). */
int64_t pdrt_instance_steps(const pdrt_instance *instance);
/* Writes the trained model as a Paddle inference model, DIR/model.pdmodel
 * (the forward program as compiled) and DIR/model.pdiparams holding the
 * instance's current parameters, which paddle-run, paddle-compile and Paddle
 * load. PDRT_ERR_STATE when the artifact has no inference program (not a
 * train step, or its forward could not be exported). */
pdrt_status pdrt_save_params(const pdrt_instance *instance, const char *dir);
/* A pipeline train step run by its job (one rank per stage) keeps each
 * stage's parameters and optimizer state current on that stage's rank
 * only. This copies every stage's into rank 0's instance, so that rank 0
 * holds the whole trained model (pdrt_save_params). Every rank of the job
 * calls it at the same point; for other artifacts it does nothing. */
pdrt_status pdrt_gather_stage_params(pdrt_instance *instance);
/* A checkpoint: every trained weight (parameters, batch_norm statistics,
 * optimizer state and step counter) and pdrt_instance_steps, in one file
 * written atomically. Loading it into an instance of the same model (same
 * fingerprint) resumes training bit-exactly; a file from another model, a
 * truncated one or one lacking a weight is refused and changes nothing. */
pdrt_status pdrt_save_checkpoint(const pdrt_instance *instance, const char *path);
pdrt_status pdrt_load_checkpoint(pdrt_instance *instance, const char *path);

/* Weights by name. For a train step (docs/Training.md) the trainable
 * weights belong to the instance: each run writes their updates back, and
 * pdrt_get_weight reads the current values (valid until the next run or
 * pdrt_set_weight); other weights are the model's, read-only. */
pdrt_status pdrt_get_weight(const pdrt_instance *instance, const char *name, const void **data,
                            const int64_t **shape, int64_t *rank, pdrt_dtype *dtype);
/* Overwrites the trainable weight `name` of the instance; dtype and shape
 * must match the manifest's. */
pdrt_status pdrt_set_weight(pdrt_instance *instance, const char *name, pdrt_dtype dtype,
                            const int64_t *shape, int64_t rank, const void *data);

#ifdef __cplusplus
}
#endif

#endif /* PADDLE_MLIR_PDRT_H */
