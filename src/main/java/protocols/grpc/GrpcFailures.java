package protocols.grpc;

import io.grpc.Status;
import protocols.core.CallFailure;
import protocols.core.FailureDescriber;

/** A gRPC failure reads as its status code, description and cause: "UNAVAILABLE: io exception (...)". */
final class GrpcFailures {

  private GrpcFailures() {}

  static CallFailure describe(Throwable failure) {
    Status status = Status.fromThrowable(failure);
    if (status.getCode() == Status.Code.UNKNOWN && status.getCause() == failure) {
      // not a gRPC exception at all: our own code or the payload threw
      return FailureDescriber.DEFAULT.describe(failure);
    }
    StringBuilder message = new StringBuilder(status.getCode().name());
    if (status.getDescription() != null) {
      message.append(": ").append(status.getDescription());
    }
    if (status.getCause() != null) {
      message.append(" (").append(FailureDescriber.messageChain(status.getCause())).append(')');
    }
    return new CallFailure(status.getCode().name(), message.toString());
  }
}
