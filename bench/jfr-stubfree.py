#!/usr/bin/env python3
"""Where the Gatling event loops' CPU samples of stub-free and stub gRPC calls go: the share of samples
(gatling-* threads only) whose stack holds each step of a call, summed over the recordings given (a sample
counts once per step it shows; steps nest, so shares do not add up). Usage, after
bench/stubfree.sh -Dprofile=true -Dout=DIR:
  bench/jfr-stubfree.py DIR/grpc/round-*/stub-free/gatling.jfr     (needs the JDK's `jfr` on PATH)"""
import collections, re, subprocess, sys

STEPS = [
    ("Gatling's checks, all", "io.gatling.core.check.Check$.check("),
    ("reply JSON text (JsonFormat printer)", "JsonFormat$PrinterImpl.print("),
    ("reply JSON text parsed (Jackson readTree)", "ObjectMapper.readTree"),
    ("reply JSON tree from the message (ProtoJsonTree)", "ProtoJsonTree.of"),
    ("jsonPath evaluation (Gatling)", ("io.gatling.core.check.jsonpath.JsonPaths", "io.gatling.jsonpath.")),
    ("reply decoding, all (grpc-java marshaller)", "ProtoLiteUtils$MessageMarshaller.parse"),
    ("reply decoding by reflection (DynamicMessage: MessageReflection)", "MessageReflection.mergeMessageFrom"),
    ("request encoding (marshaller drainTo)", "ProtoInputStream.drainTo"),
    ("microsecond record (LatencyRecord, HdrHistogram)", ("LatencyRecord", "org.HdrHistogram")),
]

if len(sys.argv) < 2:
    sys.exit(__doc__)
counts, samples = collections.Counter(), 0
for recording in sys.argv[1:]:
    text = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", recording],
                          check=True, capture_output=True, text=True).stdout
    for event in text.split("jdk.ExecutionSample")[1:]:
        thread = re.search(r'sampledThread = "([^"]*)"', event)
        if not thread or not thread.group(1).startswith("gatling-"):
            continue
        samples += 1
        for name, marks in STEPS:
            if any(mark in event for mark in ((marks,) if isinstance(marks, str) else marks)):
                counts[name] += 1
print(f"{samples} CPU samples on Gatling's threads in {len(sys.argv) - 1} recording(s)")
for name, _ in STEPS:
    print(f"{100.0 * counts[name] / max(1, samples):6.1f} %  {name}")
