// After each example's build: its resolved dependencies (target/dependencies.txt, from dependency:list) must hold
// this project's artifact at this version and no jar of another stack or of the benchmark harness.
def stacks = [
    grpc  : ['io.grpc:'],
    thrift: ['org.apache.thrift:'],
    dubbo : ['org.apache.dubbo:', 'org.apache.zookeeper:', 'org.apache.curator:', 'com.alibaba.fastjson2:'],
    motan : ['com.weibo:', 'com.caucho:', 'com.alibaba:fastjson:'],
    rpcx  : [],
]
def harness = ['org.webjars', 'io.grpc:grpc-netty-shaded:', 'org.apache.curator:curator-test:']

def stack = basedir.name
assert stacks.containsKey(stack) : "examples/${stack}: no such stack; expected one of ${stacks.keySet()}"
def listing = new File(basedir, 'target/dependencies.txt')
assert listing.isFile() : "${listing}: missing; dependency:list should have written it"

def artifacts = listing.readLines()*.trim().findAll { it ==~ /[^\s:]+:[^\s:]+:[^\s]+:(compile|runtime|test|provided|system).*/ }
def foreign = stacks.findAll { it.key != stack }.values().flatten() + harness
def found = artifacts.findAll { a -> foreign.any { a.startsWith(it) } }
assert found.isEmpty() : "examples/${stack} resolved jars of other stacks or of the benchmark harness: ${found}"
assert artifacts.any { it.startsWith("io.github.gatlingrpc:gatling-rpc:jar:${gatlingRpcVersion}:") } :
    "examples/${stack} does not depend on gatling-rpc ${gatlingRpcVersion}: ${artifacts.findAll { it.contains('gatling-rpc') }}"

println "examples/${stack}: ${artifacts.size()} dependencies, none of another stack"
new File(basedir, 'target/dependency-count.txt').text = "${artifacts.size()}\n"
return true
