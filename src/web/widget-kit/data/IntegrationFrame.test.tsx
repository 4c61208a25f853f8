import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { IntegrationFrame } from "./IntegrationFrame";
import { type IntegrationData, integrationDataRequest } from "./integration-data";

const failed = (data?: { data: string[]; fetchedAt: string; stale: boolean }): IntegrationData<string[]> => ({
  asks: { integrationId: "i1" },
  queryKey: ["docker", "w1", "{}"],
  query: {
    data,
    dataUpdatedAt: 0,
    error: new Error("Docker is away"),
    errorUpdatedAt: 1,
    isError: true,
    isFetching: false,
    refetch: () => {},
  },
});

function frame(data: IntegrationData<string[]>, readOnly = false) {
  return renderToStaticMarkup(
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={() => {}}
      empty={{ icon: "layout", text: "Choose one", readOnlyText: "Nothing yet", setUp: "Set up" }}
      errorTitle="Couldn't load the containers"
      describeError={() => ({ message: "Docker did not answer", detail: "at tcp://nas:2375" })}
      label="the containers"
      upstream={{ service: "Docker" }}
    >
      {(items) => <ul>{items.join(",")}</ul>}
    </IntegrationFrame>,
  );
}

describe("IntegrationFrame", () => {
  it("asks an editor to set the widget up while its config asks for nothing; a viewer is told", () => {
    const none = { ...failed(), asks: null };
    expect(frame(none)).toContain("<button");
    expect(frame(none)).toContain("Choose one");
    expect(frame(none, true)).not.toContain("<button");
    expect(frame(none, true)).toContain("Nothing yet");
  });

  it("says the widget's own words when nothing came, with the detail for an editor only", () => {
    const html = frame(failed());
    expect(html).toContain('<div class="integration-error"><div class="error-state" role="alert">');
    expect(html).toContain("Couldn&#x27;t load the containers");
    expect(html).toContain("Docker did not answer");
    expect(html).toContain('<p class="integration-error-detail">at tcp://nas:2375</p>');
    expect(frame(failed(), true)).not.toContain("at tcp://nas:2375");
  });

  it("keeps data that came before a failed refresh, and draws what is in the envelope", () => {
    const html = frame(failed({ data: ["web", "db"], fetchedAt: "", stale: false }));
    expect(html).toContain("<ul>web,db</ul>");
    expect(html).not.toContain("integration-error");
  });
});

describe("integration data request", () => {
  it("keys each widget type's answers apart, and a public page's apart from a session's", () => {
    const mine = integrationDataRequest({ kind: "session" }, "w/1", "docker", '{"a":1}');
    const theirs = integrationDataRequest({ kind: "public", dashboardId: "b1" }, "w/1", "docker", '{"a":1}');
    expect(mine.queryKey).toEqual(["docker", "w/1", '{"a":1}']);
    expect(theirs.queryKey).toEqual(["public-widget", "b1", "w/1", "docker", '{"a":1}']);
  });
});
