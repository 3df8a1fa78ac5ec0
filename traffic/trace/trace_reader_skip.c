/* trace_reader_skip: the records the replayer does not model (one-sided, I/O, threads,
 * metrics, ...), each counted by kind through trace_reader_skip. One callback per OTF2 record
 * type, as the library calls each with its own parameters. */
#include <otf2/otf2.h>

#include "trace_reader.h"

#pragma GCC diagnostic ignored "-Wunused-parameter"

#define SKIP(name, kind, ...)                                                                   \
    static OTF2_CallbackCode skip_##name(OTF2_LocationRef location, OTF2_TimeStamp time,        \
                                         void *user, OTF2_AttributeList *attributes,            \
                                         __VA_ARGS__)                                           \
    {                                                                                           \
        trace_reader_skip(user, location, TRACE_SKIP_##kind);                                   \
        return OTF2_CALLBACK_SUCCESS;                                                           \
    }
#define SKIP0(name, kind)                                                                       \
    static OTF2_CallbackCode skip_##name(OTF2_LocationRef location, OTF2_TimeStamp time,        \
                                         void *user, OTF2_AttributeList *attributes)            \
    {                                                                                           \
        trace_reader_skip(user, location, TRACE_SKIP_##kind);                                   \
        return OTF2_CALLBACK_SUCCESS;                                                           \
    }

SKIP(BufferFlush, OTHER, OTF2_TimeStamp stopTime)
SKIP(MeasurementOnOff, OTHER, OTF2_MeasurementMode measurementMode)
SKIP(OmpFork, THREADS, uint32_t numberOfRequestedThreads)
SKIP0(OmpJoin, THREADS)
SKIP(OmpAcquireLock, THREADS, uint32_t lockID, uint32_t acquisitionOrder)
SKIP(OmpReleaseLock, THREADS, uint32_t lockID, uint32_t acquisitionOrder)
SKIP(OmpTaskCreate, THREADS, uint64_t taskID)
SKIP(OmpTaskSwitch, THREADS, uint64_t taskID)
SKIP(OmpTaskComplete, THREADS, uint64_t taskID)
SKIP(Metric, METRIC, OTF2_MetricRef metric, uint8_t numberOfMetrics, const OTF2_Type* typeIDs, const OTF2_MetricValue* metricValues)
SKIP(ParameterString, METRIC, OTF2_ParameterRef parameter, OTF2_StringRef string)
SKIP(ParameterInt, METRIC, OTF2_ParameterRef parameter, int64_t value)
SKIP(ParameterUnsignedInt, METRIC, OTF2_ParameterRef parameter, uint64_t value)
SKIP(RmaWinCreate, ONE_SIDED, OTF2_RmaWinRef win)
SKIP(RmaWinDestroy, ONE_SIDED, OTF2_RmaWinRef win)
SKIP0(RmaCollectiveBegin, ONE_SIDED)
SKIP(RmaCollectiveEnd, ONE_SIDED, OTF2_CollectiveOp collectiveOp, OTF2_RmaSyncLevel syncLevel, OTF2_RmaWinRef win, uint32_t root, uint64_t bytesSent, uint64_t bytesReceived)
SKIP(RmaGroupSync, ONE_SIDED, OTF2_RmaSyncLevel syncLevel, OTF2_RmaWinRef win, OTF2_GroupRef group)
SKIP(RmaRequestLock, ONE_SIDED, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId, OTF2_LockType lockType)
SKIP(RmaAcquireLock, ONE_SIDED, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId, OTF2_LockType lockType)
SKIP(RmaTryLock, ONE_SIDED, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId, OTF2_LockType lockType)
SKIP(RmaReleaseLock, ONE_SIDED, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId)
SKIP(RmaSync, ONE_SIDED, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType syncType)
SKIP(RmaWaitChange, ONE_SIDED, OTF2_RmaWinRef win)
SKIP(RmaPut, ONE_SIDED, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matchingId)
SKIP(RmaGet, ONE_SIDED, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matchingId)
SKIP(RmaAtomic, ONE_SIDED, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type, uint64_t bytesSent, uint64_t bytesReceived, uint64_t matchingId)
SKIP(RmaOpCompleteBlocking, ONE_SIDED, OTF2_RmaWinRef win, uint64_t matchingId)
SKIP(RmaOpCompleteNonBlocking, ONE_SIDED, OTF2_RmaWinRef win, uint64_t matchingId)
SKIP(RmaOpTest, ONE_SIDED, OTF2_RmaWinRef win, uint64_t matchingId)
SKIP(RmaOpCompleteRemote, ONE_SIDED, OTF2_RmaWinRef win, uint64_t matchingId)
SKIP(ThreadFork, THREADS, OTF2_Paradigm model, uint32_t numberOfRequestedThreads)
SKIP(ThreadJoin, THREADS, OTF2_Paradigm model)
SKIP(ThreadTeamBegin, THREADS, OTF2_CommRef threadTeam)
SKIP(ThreadTeamEnd, THREADS, OTF2_CommRef threadTeam)
SKIP(ThreadAcquireLock, THREADS, OTF2_Paradigm model, uint32_t lockID, uint32_t acquisitionOrder)
SKIP(ThreadReleaseLock, THREADS, OTF2_Paradigm model, uint32_t lockID, uint32_t acquisitionOrder)
SKIP(ThreadTaskCreate, THREADS, OTF2_CommRef threadTeam, uint32_t creatingThread, uint32_t generationNumber)
SKIP(ThreadTaskSwitch, THREADS, OTF2_CommRef threadTeam, uint32_t creatingThread, uint32_t generationNumber)
SKIP(ThreadTaskComplete, THREADS, OTF2_CommRef threadTeam, uint32_t creatingThread, uint32_t generationNumber)
SKIP(ThreadCreate, THREADS, OTF2_CommRef threadContingent, uint64_t sequenceCount)
SKIP(ThreadBegin, THREADS, OTF2_CommRef threadContingent, uint64_t sequenceCount)
SKIP(ThreadWait, THREADS, OTF2_CommRef threadContingent, uint64_t sequenceCount)
SKIP(ThreadEnd, THREADS, OTF2_CommRef threadContingent, uint64_t sequenceCount)
SKIP(CallingContextEnter, OTHER, OTF2_CallingContextRef callingContext, uint32_t unwindDistance)
SKIP(CallingContextLeave, OTHER, OTF2_CallingContextRef callingContext)
SKIP(CallingContextSample, OTHER, OTF2_CallingContextRef callingContext, uint32_t unwindDistance, OTF2_InterruptGeneratorRef interruptGenerator)
SKIP(IoCreateHandle, IO, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode, OTF2_IoCreationFlag creationFlags, OTF2_IoStatusFlag statusFlags)
SKIP(IoDestroyHandle, IO, OTF2_IoHandleRef handle)
SKIP(IoDuplicateHandle, IO, OTF2_IoHandleRef oldHandle, OTF2_IoHandleRef newHandle, OTF2_IoStatusFlag statusFlags)
SKIP(IoSeek, IO, OTF2_IoHandleRef handle, int64_t offsetRequest, OTF2_IoSeekOption whence, uint64_t offsetResult)
SKIP(IoChangeStatusFlags, IO, OTF2_IoHandleRef handle, OTF2_IoStatusFlag statusFlags)
SKIP(IoDeleteFile, IO, OTF2_IoParadigmRef ioParadigm, OTF2_IoFileRef file)
SKIP(IoOperationBegin, IO, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode, OTF2_IoOperationFlag operationFlags, uint64_t bytesRequest, uint64_t matchingId)
SKIP(IoOperationTest, IO, OTF2_IoHandleRef handle, uint64_t matchingId)
SKIP(IoOperationIssued, IO, OTF2_IoHandleRef handle, uint64_t matchingId)
SKIP(IoOperationComplete, IO, OTF2_IoHandleRef handle, uint64_t bytesResult, uint64_t matchingId)
SKIP(IoOperationCancelled, IO, OTF2_IoHandleRef handle, uint64_t matchingId)
SKIP(IoAcquireLock, IO, OTF2_IoHandleRef handle, OTF2_LockType lockType)
SKIP(IoReleaseLock, IO, OTF2_IoHandleRef handle, OTF2_LockType lockType)
SKIP(IoTryLock, IO, OTF2_IoHandleRef handle, OTF2_LockType lockType)
SKIP(ProgramBegin, OTHER, OTF2_StringRef programName, uint32_t numberOfArguments, const OTF2_StringRef* programArguments)
SKIP(ProgramEnd, OTHER, int64_t exitStatus)
SKIP(NonBlockingCollectiveRequest, OTHER, uint64_t requestID)
SKIP(CommCreate, OTHER, OTF2_CommRef communicator)
SKIP(CommDestroy, OTHER, OTF2_CommRef communicator)

void trace_reader_register_skips(OTF2_GlobalEvtReaderCallbacks *cb)
{
    OTF2_GlobalEvtReaderCallbacks_SetBufferFlushCallback(cb, skip_BufferFlush);
    OTF2_GlobalEvtReaderCallbacks_SetMeasurementOnOffCallback(cb, skip_MeasurementOnOff);
    OTF2_GlobalEvtReaderCallbacks_SetOmpForkCallback(cb, skip_OmpFork);
    OTF2_GlobalEvtReaderCallbacks_SetOmpJoinCallback(cb, skip_OmpJoin);
    OTF2_GlobalEvtReaderCallbacks_SetOmpAcquireLockCallback(cb, skip_OmpAcquireLock);
    OTF2_GlobalEvtReaderCallbacks_SetOmpReleaseLockCallback(cb, skip_OmpReleaseLock);
    OTF2_GlobalEvtReaderCallbacks_SetOmpTaskCreateCallback(cb, skip_OmpTaskCreate);
    OTF2_GlobalEvtReaderCallbacks_SetOmpTaskSwitchCallback(cb, skip_OmpTaskSwitch);
    OTF2_GlobalEvtReaderCallbacks_SetOmpTaskCompleteCallback(cb, skip_OmpTaskComplete);
    OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(cb, skip_Metric);
    OTF2_GlobalEvtReaderCallbacks_SetParameterStringCallback(cb, skip_ParameterString);
    OTF2_GlobalEvtReaderCallbacks_SetParameterIntCallback(cb, skip_ParameterInt);
    OTF2_GlobalEvtReaderCallbacks_SetParameterUnsignedIntCallback(cb, skip_ParameterUnsignedInt);
    OTF2_GlobalEvtReaderCallbacks_SetRmaWinCreateCallback(cb, skip_RmaWinCreate);
    OTF2_GlobalEvtReaderCallbacks_SetRmaWinDestroyCallback(cb, skip_RmaWinDestroy);
    OTF2_GlobalEvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, skip_RmaCollectiveBegin);
    OTF2_GlobalEvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, skip_RmaCollectiveEnd);
    OTF2_GlobalEvtReaderCallbacks_SetRmaGroupSyncCallback(cb, skip_RmaGroupSync);
    OTF2_GlobalEvtReaderCallbacks_SetRmaRequestLockCallback(cb, skip_RmaRequestLock);
    OTF2_GlobalEvtReaderCallbacks_SetRmaAcquireLockCallback(cb, skip_RmaAcquireLock);
    OTF2_GlobalEvtReaderCallbacks_SetRmaTryLockCallback(cb, skip_RmaTryLock);
    OTF2_GlobalEvtReaderCallbacks_SetRmaReleaseLockCallback(cb, skip_RmaReleaseLock);
    OTF2_GlobalEvtReaderCallbacks_SetRmaSyncCallback(cb, skip_RmaSync);
    OTF2_GlobalEvtReaderCallbacks_SetRmaWaitChangeCallback(cb, skip_RmaWaitChange);
    OTF2_GlobalEvtReaderCallbacks_SetRmaPutCallback(cb, skip_RmaPut);
    OTF2_GlobalEvtReaderCallbacks_SetRmaGetCallback(cb, skip_RmaGet);
    OTF2_GlobalEvtReaderCallbacks_SetRmaAtomicCallback(cb, skip_RmaAtomic);
    OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, skip_RmaOpCompleteBlocking);
    OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, skip_RmaOpCompleteNonBlocking);
    OTF2_GlobalEvtReaderCallbacks_SetRmaOpTestCallback(cb, skip_RmaOpTest);
    OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cb, skip_RmaOpCompleteRemote);
    OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(cb, skip_ThreadFork);
    OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(cb, skip_ThreadJoin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(cb, skip_ThreadTeamBegin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(cb, skip_ThreadTeamEnd);
    OTF2_GlobalEvtReaderCallbacks_SetThreadAcquireLockCallback(cb, skip_ThreadAcquireLock);
    OTF2_GlobalEvtReaderCallbacks_SetThreadReleaseLockCallback(cb, skip_ThreadReleaseLock);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCreateCallback(cb, skip_ThreadTaskCreate);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, skip_ThreadTaskSwitch);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, skip_ThreadTaskComplete);
    OTF2_GlobalEvtReaderCallbacks_SetThreadCreateCallback(cb, skip_ThreadCreate);
    OTF2_GlobalEvtReaderCallbacks_SetThreadBeginCallback(cb, skip_ThreadBegin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadWaitCallback(cb, skip_ThreadWait);
    OTF2_GlobalEvtReaderCallbacks_SetThreadEndCallback(cb, skip_ThreadEnd);
    OTF2_GlobalEvtReaderCallbacks_SetCallingContextEnterCallback(cb, skip_CallingContextEnter);
    OTF2_GlobalEvtReaderCallbacks_SetCallingContextLeaveCallback(cb, skip_CallingContextLeave);
    OTF2_GlobalEvtReaderCallbacks_SetCallingContextSampleCallback(cb, skip_CallingContextSample);
    OTF2_GlobalEvtReaderCallbacks_SetIoCreateHandleCallback(cb, skip_IoCreateHandle);
    OTF2_GlobalEvtReaderCallbacks_SetIoDestroyHandleCallback(cb, skip_IoDestroyHandle);
    OTF2_GlobalEvtReaderCallbacks_SetIoDuplicateHandleCallback(cb, skip_IoDuplicateHandle);
    OTF2_GlobalEvtReaderCallbacks_SetIoSeekCallback(cb, skip_IoSeek);
    OTF2_GlobalEvtReaderCallbacks_SetIoChangeStatusFlagsCallback(cb, skip_IoChangeStatusFlags);
    OTF2_GlobalEvtReaderCallbacks_SetIoDeleteFileCallback(cb, skip_IoDeleteFile);
    OTF2_GlobalEvtReaderCallbacks_SetIoOperationBeginCallback(cb, skip_IoOperationBegin);
    OTF2_GlobalEvtReaderCallbacks_SetIoOperationTestCallback(cb, skip_IoOperationTest);
    OTF2_GlobalEvtReaderCallbacks_SetIoOperationIssuedCallback(cb, skip_IoOperationIssued);
    OTF2_GlobalEvtReaderCallbacks_SetIoOperationCompleteCallback(cb, skip_IoOperationComplete);
    OTF2_GlobalEvtReaderCallbacks_SetIoOperationCancelledCallback(cb, skip_IoOperationCancelled);
    OTF2_GlobalEvtReaderCallbacks_SetIoAcquireLockCallback(cb, skip_IoAcquireLock);
    OTF2_GlobalEvtReaderCallbacks_SetIoReleaseLockCallback(cb, skip_IoReleaseLock);
    OTF2_GlobalEvtReaderCallbacks_SetIoTryLockCallback(cb, skip_IoTryLock);
    OTF2_GlobalEvtReaderCallbacks_SetProgramBeginCallback(cb, skip_ProgramBegin);
    OTF2_GlobalEvtReaderCallbacks_SetProgramEndCallback(cb, skip_ProgramEnd);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, skip_NonBlockingCollectiveRequest);
    OTF2_GlobalEvtReaderCallbacks_SetCommCreateCallback(cb, skip_CommCreate);
    OTF2_GlobalEvtReaderCallbacks_SetCommDestroyCallback(cb, skip_CommDestroy);
}
