import { jsonWrite } from "@/lib/server/http";
import { steer } from "@/lib/server/api/v1";

export const POST = jsonWrite<{ id: string }>("runs.manage", steer("cancel"));
