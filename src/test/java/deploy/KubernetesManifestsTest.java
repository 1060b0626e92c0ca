package deploy;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/kubernetes cannot run here: its manifests are parsed and the fields that make N pods one
 * load are checked: the completion index is the injector index, N is the same everywhere, every pod
 * reads the one start instant, and all write to (and the merge reads from) one volume.
 */
class KubernetesManifestsTest {

  private static final Path DIR = Path.of("deploy", "kubernetes");

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o, String what) {
    assertInstanceOf(Map.class, o, what);
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o, String what) {
    assertInstanceOf(List.class, o, what);
    return (List<Object>) o;
  }

  private static List<Map<String, Object>> documents(String file) throws Exception {
    List<Map<String, Object>> docs = new ArrayList<>();
    for (Object doc : new Yaml().loadAll(Files.readString(DIR.resolve(file)))) {
      docs.add(map(doc, file));
    }
    return docs;
  }

  private static Map<String, Object> podSpec(Map<String, Object> job) {
    return map(map(map(job.get("spec"), "spec").get("template"), "template").get("spec"), "pod spec");
  }

  private static Map<String, Object> container(Map<String, Object> job) {
    return map(list(podSpec(job).get("containers"), "containers").get(0), "container");
  }

  private static Map<String, Object> env(Map<String, Object> container, String name) {
    for (Object e : list(container.get("env"), "env")) {
      if (name.equals(map(e, "env").get("name"))) {
        return map(e, name);
      }
    }
    throw new AssertionError("no env " + name + " in " + container);
  }

  @Test
  void eachPodIsTheInjectorOfItsCompletionIndexAndNIsTheSameEverywhere() throws Exception {
    Map<String, Object> job = documents("injectors-job.yaml").get(0);
    Map<String, Object> spec = map(job.get("spec"), "spec");
    Map<String, Object> injector = container(job);

    assertEquals("Job", job.get("kind"));
    assertEquals("Indexed", spec.get("completionMode"));
    int n = Integer.parseInt((String) env(injector, "INJECTORS").get("value"));
    assertEquals(n, spec.get("completions"), "INJECTORS equals completions");
    assertEquals(n, spec.get("parallelism"), "all injectors run at once");
    assertEquals(0, spec.get("backoffLimit"), "a retried injector would miss the start");
    Map<String, Object> index = map(map(env(injector, "INJECTOR").get("valueFrom"), "valueFrom").get("fieldRef"), "fieldRef");
    assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']", index.get("fieldPath"));
  }

  @Test
  void everyPodReadsTheOneStartInstantThatTheReadmeCommandCreates() throws Exception {
    Map<String, Object> ref = map(map(env(container(documents("injectors-job.yaml").get(0)), "STARTAT").get("valueFrom"), "valueFrom")
        .get("configMapKeyRef"), "configMapKeyRef");

    String readme = Files.readString(Path.of("README.md"));
    assertTrue(readme.contains("kubectl create configmap " + ref.get("name") + " --from-literal=" + ref.get("key") + "="),
        "README creates the ConfigMap " + ref);
  }

  @Test
  void theImageRunsTheInjectorAsTheTestsDoWithIndexCountAndStart() throws Exception {
    String script = Files.readString(DIR.resolve("gatling-rpc"));
    String dockerfile = Files.readString(DIR.resolve("Dockerfile"));

    assertTrue(dockerfile.contains("COPY deploy/kubernetes/gatling-rpc") && dockerfile.contains("ENTRYPOINT [\"gatling-rpc\"]"), dockerfile);
    for (String wire : List.of("-Dinjectors=\"$INJECTORS\"", "-Dinjector=\"$INJECTOR\"", "-DstartAt=\"$STARTAT\"",
        "--add-opens=java.base/java.lang=ALL-UNNAMED", "io.gatling.app.Gatling --simulation \"simulations.$SIMULATION\"",
        "--results-folder \"/results/injector-$INJECTOR\"", "-Druns=/results -Dout=/results/merged", "protocols.core.report.Merge")) {
      assertTrue(script.contains(wire), "the image's command has " + wire);
    }
    assertEquals(List.of("injector"), container(documents("injectors-job.yaml").get(0)).get("args"));
    assertEquals(List.of("merge"), container(documents("merge-job.yaml").get(0)).get("args"));
  }

  @Test
  void injectorsAndTheMergeShareOneResultsVolume() throws Exception {
    String claim = (String) map(documents("results-volume.yaml").get(0).get("metadata"), "metadata").get("name");
    for (String file : List.of("injectors-job.yaml", "merge-job.yaml")) {
      Map<String, Object> job = documents(file).get(0);
      Map<String, Object> volume = map(list(podSpec(job).get("volumes"), "volumes").get(0), "volume");
      assertEquals(claim, map(volume.get("persistentVolumeClaim"), "pvc").get("claimName"), file);
      Map<String, Object> mount = map(list(container(job).get("volumeMounts"), "mounts").get(0), "mount");
      assertEquals(volume.get("name"), mount.get("name"), file);
      assertEquals("/results", mount.get("mountPath"), file);
    }
  }
}
