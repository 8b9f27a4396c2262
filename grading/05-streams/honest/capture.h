/* capture.h - what lab 05's honest variants share: the work one call queues on several streams,
 * captured once as a CUDA graph, and its replay. Included by honest/*.cu only. */
#include <cuda_runtime.h>

/* Capture what queue(arg) puts on st[0..n) into *graph and instantiate it. The other streams join
 * the capture by waiting on ev[0], recorded on st[0] (the fork); st[0] then waits on ev[i],
 * recorded at the end of stream i (the join), so the graph ends when every stream's work has. */
static void capture_graph(cudaStream_t *st, int n, cudaEvent_t *ev, cudaStreamCaptureMode mode, void (*queue)(void *),
                          void *arg, cudaGraph_t *graph, cudaGraphExec_t *exec)
{
    cudaStreamBeginCapture(st[0], mode);
    cudaEventRecord(ev[0], st[0]);
    for (int i = 1; i < n; i++) cudaStreamWaitEvent(st[i], ev[0], 0);
    queue(arg);
    for (int i = 1; i < n; i++) {
        cudaEventRecord(ev[i], st[i]);
        cudaStreamWaitEvent(st[0], ev[i], 0);
    }
    cudaStreamEndCapture(st[0], graph);
    cudaGraphInstantiate(exec, *graph, 0);
}

/* One call: the whole graph on stream s, finished when this returns. */
static void replay(cudaGraphExec_t exec, cudaStream_t s)
{
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
}
