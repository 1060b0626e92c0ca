package protocols.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A page opened from disk in a real headless browser (Debian's chromium): the DOM after its scripts ran. */
public final class Chromium {

  public static final Path BINARY = Path.of("/usr/bin/chromium");

  private Chromium() {}

  /** The page's DOM once its scripts ran; {@code workDir} holds the browser's profile and its stderr. */
  public static String dumpDom(Path page, Path workDir) throws Exception {
    assertTrue(Files.isExecutable(BINARY), "needs Debian's chromium (apt-get install chromium); .ci/run installs it");
    Process chromium =
        new ProcessBuilder(
                BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + workDir.resolve("profile"), "--virtual-time-budget=5000", "--dump-dom",
                page.toUri().toString())
            .redirectError(workDir.resolve("chromium.err").toFile())
            .start();
    byte[] out = chromium.getInputStream().readAllBytes();
    assertTrue(chromium.waitFor(60, TimeUnit.SECONDS), "chromium ended");
    return new String(out, StandardCharsets.UTF_8);
  }
}
