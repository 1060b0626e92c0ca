package protocols.core.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * One self-contained HTML page (opens from disk, no network) from a template: Chart.js, the shared
 * style and helpers, and the page's data inlined. Used by the per-run report and the matrix's report.
 *
 * <p>A template holds {@code /*PAGE_CSS*}{@code /}, {@code /*CHART_JS*}{@code /}, {@code /*PAGE_JS*}{@code /}
 * and {@code /*DATA*}{@code /null}; its script sets {@code document.body.dataset.chartsRendered} when done
 * and the shared helpers record any script error in {@code data-errors} (a headless browser can read both).
 */
public final class HtmlPage {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHART_JS = "META-INF/resources/webjars/chart.js/4.4.1/dist/chart.umd.js";

  private HtmlPage() {}

  public static String render(String templateResource, ObjectNode data) throws IOException {
    String json = toScript(data);
    return resource(templateResource)
        .replace("/*PAGE_CSS*/", resource("protocols/core/report/page.css"))
        .replace("/*CHART_JS*/", resource(CHART_JS))
        .replace("/*PAGE_JS*/", resource("protocols/core/report/page.js"))
        .replace("/*DATA*/null", json);
  }

  /** JSON that cannot close the script element it sits in. */
  private static String toScript(ObjectNode data) throws JsonProcessingException {
    return JSON.writeValueAsString(data).replace("</", "<\\/");
  }

  static String resource(String name) throws IOException {
    try (InputStream in = HtmlPage.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
