import { jsonWrite } from "@/lib/server/http";
import { setContentSetStatusApi } from "@/lib/server/api/content-sets";

export const POST = jsonWrite<{ ref: string }>("content.approve", (body, { params, viewer }) =>
  setContentSetStatusApi(decodeURIComponent(params.ref), "retire", body, viewer),
);
