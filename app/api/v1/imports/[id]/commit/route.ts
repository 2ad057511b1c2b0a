export { POST } from "@/app/api/imports/[id]/commit/route";
